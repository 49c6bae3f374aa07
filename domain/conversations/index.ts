/** The conversation engine (docs/api/conversations.md): what channels build on. */
export type { Channel, ChannelAdapter, ReplyContext } from './channels';
export type { ConversationDeps } from './deps';
export { openConversation, type OpenRequest } from './open';
export { takeTurn, deliverInbound, type TurnRequest, type TurnReply } from './turns';
export { endConversation } from './end';
export { findConversation, listMessages } from './find';
export { presentConversation, presentMessage, type ConversationView, type ConversationMessageView } from './presenters';
export { replyText } from './replyText';
