/**
 * Calls the specification lists as existing without showing their payloads or screens (part 2 §7, last paragraph):
 * super employee/helper bots.
 * Their request and response schemas are permissive; until a feature is specified the server answers MSG.comingSoon.
 */
import { defineCall, type HttpMethod } from '../call';
import { okOnly } from '../schema';
import { anyPayload } from './fields';

const NOT_SPECIFIED = 'Payload not in the spec (listed as existing only); permissive schemas, answers MSG.comingSoon until specified.';

const more = <const Id extends string>(id: Id, method: HttpMethod, path: string, pathFromSpec: boolean, what: string) =>
  defineCall({
    id: `more.${id}` as const,
    method,
    path,
    checked: true,
    auth: 'user',
    pathFromSpec,
    summary: `${what}. ${NOT_SPECIFIED}`,
    request: anyPayload(),
    response: okOnly,
  });

export const moreCalls = {
  botRecord: more('botRecord', 'GET', '/api/bot/record', true, 'Super employee/helper: conversation records'),
  botSendMessage: more('botSendMessage', 'POST', '/api/bot/sendMessage', false, 'Super employee/helper: send a message to a bot (spec name: bot sendMessage)'),
  botTypeList: more('botTypeList', 'GET', '/api/bot/typeList', false, 'Super employee/helper: bot categories (spec name: bot typeList)'),
  botList: more('botList', 'GET', '/api/bot/botList', false, 'Super employee/helper: bots of a category (spec name: bot botList)'),
  botMessageList: more('botMessageList', 'GET', '/api/bot/messageList', false, 'Super employee/helper: messages of a conversation (spec name: bot messageList)'),
  botMessageDetail: more('botMessageDetail', 'GET', '/api/bot/messageDetail', false, 'Super employee/helper: one message (spec name: bot messageDetail)'),
  botEmploy: more('botEmploy', 'POST', '/api/bot/employ', false, 'Super employee: employ a bot (spec name: bot employ)'),
};
