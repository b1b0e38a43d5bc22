/**
 * The chat engine (an OpenAI-compatible chat completions service, DeepSeek by default): what features use of it.
 * Its configuration comes from the environment, else the operator's settings (configure.ts).
 */
export { ChatEngineError, type ChatCompletion, type ChatDelta, type ChatEngine, type ChatMessage, type ChatOptions, type ChatStreamOptions, type ChatTool, type ChatToolCall } from './chat-engine';
export { CHAT_SETTING_KEYS, resolveChatConfig } from './configure';
export { chatCompletionsUrl, DEFAULT_CHAT_BASE_URL, DEFAULT_CHAT_MODEL, DEFAULT_CHAT_TIMEOUT_MS, OpenAiCompatibleChat, type OpenAiCompatibleConfig } from './openai-compatible';
export { askJson, ChatAnswerInvalid, jsonIn } from './json-answer';
