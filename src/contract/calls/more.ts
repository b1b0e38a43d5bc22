/**
 * Calls the specification lists as existing without showing their payloads or screens (part 2 §7, last paragraph):
 * super replica (tikTok, coze).
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
  tikTokProfile: more('tikTokProfile', 'GET', '/api/tikTok/profile', true, 'Super replica: a short-video account profile'),
  tikTokProduct: more('tikTokProduct', 'GET', '/api/tikTok/product', true, 'Super replica: my products'),
  cozeAnalysisIp: more('cozeAnalysisIp', 'POST', '/api/coze/analysisIp', true, 'Super replica: analyse an account persona (IP)'),
  cozeAnalysisVideo: more('cozeAnalysisVideo', 'POST', '/api/coze/analysisVideo', false, 'Super replica: analyse a video (spec name: analysisVideo)'),
  cozeGenerateScript: more('cozeGenerateScript', 'POST', '/api/coze/generateScript', false, 'Super replica: generate a script (spec name: generateScript)'),
  cozeMimicScript: more('cozeMimicScript', 'POST', '/api/coze/mimicScript', false, 'Super replica: imitate a script (spec name: mimicScript)'),
  cozeTopic: more('cozeTopic', 'POST', '/api/coze/topic', false, 'Super replica: topic ideas (spec name: topic)'),
};
