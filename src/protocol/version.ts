/** Bumped when a request or message shape changes incompatibly. Sent by the client as `x-cairn-protocol`. */
export const PROTOCOL_VERSION = 1;
