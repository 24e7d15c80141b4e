/** The signed-in user's notifications (GET /api/notifications, POST /api/notifications/{id}/read). */
import { getApiClient } from '../../platform/apiClient';
import { type Notification, NotificationListResponse } from '../../protocol/members';
import { Ok } from '../../protocol/primitives';

export async function fetchNotifications(): Promise<Notification[]> {
  const { notifications } = await getApiClient().get('/notifications', NotificationListResponse);
  return notifications;
}

export async function markNotificationRead(id: string): Promise<void> {
  await getApiClient().post(`/notifications/${encodeURIComponent(id)}/read`, {}, Ok);
}
