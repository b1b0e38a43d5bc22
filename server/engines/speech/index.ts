/**
 * Speech: what features use of it. A voice channel names its engine (CHANNEL_ENGINES.voice) and `SpeechEngines`
 * makes it: the offline engine (./offline), a cloud provider with the operator's keys (Fish Audio, MiniMax), or a
 * self-hosted cloning server (fish-speech, GPT-SoVITS).
 */
export { PROVIDER_BASE_URLS, SpeechEngines, type SpeechChannel } from './channel-engines';
export { SpeechEngineError, type CloneSample, type EngineConfig, type EngineVoice, type SpeechEngine, type SpeechParams, type SpokenStretch, type TrainingState } from './speech-engine';
export { isCloningServer } from './providers';
export { OFFLINE_LANGUAGES } from './offline/offline-engine';
/** The offline engine's measure of a speaker (video translation speaks at the original speaker's pitch and pace). */
export { measureVoice, SampleHasNoSpeech } from './offline/voice-profile';
/** The most fish-speech takes at once; longer scripts are spoken in parts (the cloning servers' spec checks the cut). */
export { FISH_SPEECH_TEXT_LIMIT } from './fish-speech';
