import { Button } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { IconRewards } from '../../ui/icons';

/** The way to the Referral Reward page, on the Rewards and Storage pages. */
export function ReferFriendButton() {
  return (
    <Button component={Link} to="/referral" variant="default" leftSection={<IconRewards size={18} />}>
      Refer a friend
    </Button>
  );
}
