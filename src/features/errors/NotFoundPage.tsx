import { Button, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { ErrorPageLayout } from './ErrorPageLayout';

/** /404 (spec 001 section 2). */
export function NotFoundPage() {
  return (
    <ErrorPageLayout
      figure="404"
      title="Oh dear, something's wrong!"
      actions={
        <Button size="md" renderRoot={(props) => <Link to="/vaults/$status" params={{ status: 'active' }} {...props} />}>
          Return to a secure context
        </Button>
      }
    >
      <Text inherit>The page you were looking for doesn't exist, or the link that brought you here is broken.</Text>
    </ErrorPageLayout>
  );
}
