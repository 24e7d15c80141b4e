import { notifications } from '@mantine/notifications';

/** Errors stay 3 s (spec 000 section 8). */
export function showErrorSnackbar(message: string) {
  notifications.show({ color: 'red', message, autoClose: 3000 });
}

export function showSnackbar(message: string, autoClose = 3000) {
  notifications.show({ message, autoClose });
}

/** Runs an action and reports its failure as a 3 s snackbar; resolves to whether it succeeded. */
export async function runWithErrorSnackbar(action: () => Promise<unknown>, errorText: string): Promise<boolean> {
  try {
    await action();
    return true;
  } catch (error) {
    console.warn(errorText, error);
    showErrorSnackbar(errorText);
    return false;
  }
}
