/** Every business constant and limit of both specification documents' §9 (and §4 timings). */
export const LIMITS = {
  // part 1 §9
  homePageSize: 20,
  homeFallbackLimit: 9999,
  loadMoreThresholdPx: 100,
  listLimitAll: 9999,
  spaceExpandCredits: 5000,
  spaceExpandGb: 5,
  /** ours: the longest range the daily-spend chart answers, in days. */
  dailyChartMaxDays: 366,
  voicePollMs: 10_000,
  /** ours: the avatar list refreshes this often while an avatar is cloning. */
  avatarPollMs: 5000,
  worksPollMs: 15_000,
  /** ours: a screen whose code failed to load tries again this often (and when the browser is back online). */
  chunkRetryMs: 5000,
  cloneThrottleMs: 1000,
  channelChoiceDebounceMs: 500,
  uploadMaxFiles: 1,
  voiceSampleMaxFiles: 3,
  requestTimeoutMs: 30_000,
  captcha: { length: 4, width: 120, height: 40, alphabet: 'ABCDEFGHIJKLMNPQRSTUVWXYZ123456789' },

  // uploads (part 1 §5, part 2 §5, §9)
  video: { maxBytes: 500 * 1024 * 1024, minSeconds: 5, maxSeconds: 30 * 60, minShortSide: 360, maxLongSide: 3840, formats: ['mp4', 'mov'] },
  audio: {
    /** The spec gives 20 MB (clone dialog) and 10 MB (notice); we enforce 20 MB and show it (README: decisions). */
    maxBytes: 20 * 1024 * 1024,
    minSeconds: 5,
    maxSeconds: 30 * 60,
    adviseMinSeconds: 10,
    formats: ['mp3', 'm4a', 'wav'],
  },
  image: { maxBytes: 10 * 1024 * 1024, minSide: 300, formats: ['png', 'jpg', 'jpeg'] },
  translateVideoHintMinutes: 10,

  // part 2 §9
  scriptMaxChars: 10_000,
  scriptMaxCharsNw: 500,
  topicMaxChars: 500,
  writingLengths: [
    { value: 0, label: '不限' },
    { value: 150, label: '150字（约30秒）' },
    { value: 300, label: '300字（约60秒）' },
    { value: 500, label: '500字（约120秒）' },
  ],
  pauseChoices: [0.2, 0.3, 0.5, 1, 2],
  /** ours: a longer marker typed by hand is spoken as this many seconds of silence. */
  pauseMaxSeconds: 10,
  charsPerSecond: 4.2,
  /** ours: characters of a subtitle line on a 9:16 and on a 16:9 picture (between them by the aspect), and lines a cue. */
  subtitles: { lineCharsPortrait: 16, lineCharsLandscape: 24, linesPerCue: 2 },
  sliders: {
    rate: { min: 0.5, max: 2, step: 0.1, default: 1 },
    volume: { min: 0.1, max: 3, step: 0.1, default: 1 },
    pitch: { min: 0.1, max: 2, step: 0.1, default: 1 },
  },
  extractionCredits: 10,
  /** ours: a fetch of a user-supplied link follows at most this many redirects, and gives up after this long. */
  extractionFetch: { maxRedirects: 3, timeoutMs: 10 * 60_000 },
  /** ours: the list refreshes this often while a record is processing. */
  extractionPollMs: 3000,
  videoGenerationCredits: { std: { 5: 360, 10: 720 }, pro: { 5: 600, 10: 1200 } },
  /**
   * ours: a camera move made on this machine (image to video without Kling) costs this percent of Kling's price by
   * default; the operator sets another with `videogen_local_percent` (1–100).
   */
  videoLocalPercent: 10,
  imageCreditsEach: 10,
  imageCountRange: [1, 4],
  chatAnswerCredits: 10,
  /**
   * ours: copy extraction (/copywrite/index): a record's price (the free daily extractions apply), its text, the
   * history page, a custom rewrite instruction.
   */
  copywrite: { credits: 10, textMaxChars: 20_000, pageSize: 10, instructionMaxChars: 200 },
  imageRatios: ['16:9', '9:16', '1:1', '2:3'],
  videoRatios: ['16:9', '9:16', '1:1'],
  videoDurations: [5, 10],
  imagination: { min: 0, max: 1, step: 0.05, default: 0.5, warnAt: 0.75 },
  videoModeDefault: 'std',
  gjAvatarSeconds: { min: 30, max: 300 },
  auditionPollMs: 3000,
  /** ours: auditions are free, so each user (and all guests of one IP together) gets this much synthesis. */
  audition: { maxRunning: 2, perMinute: 10 },
  generationPollMs: 15_000,
  typingMsPerChar: 30,
  carouselMs: 2000,
  presetSearchDebounceMs: 300,
  scrollThrottleMs: 100,
  createDebounceMs: 500,
  submitThrottleMs: 1000,
  historyLimit: 99_999,
  recommendCount: 3,
  recommendCountImageToVideo: 5,
  loginRedirectDelayMs: 800,
  remResizeDebounceMs: 300,
  popoverWidth: 300,
  qrPopoverWidth: 240,
  emotions: [
    { value: 'default', label: '默认' },
    { value: 'happy', label: '开心' },
    { value: 'sad', label: '悲伤' },
    { value: 'angry', label: '愤怒' },
    { value: 'fearful', label: '害怕' },
    { value: 'disgusted', label: '厌恶' },
    { value: 'surprised', label: '惊讶' },
    { value: 'neutral', label: '中性' },
  ],

  // ours: envelope and sessions (ARCHITECTURE.md)
  envelopeSkewSeconds: 300,
  envelopeMaxBodyBytes: 1024 * 1024,
  sessionTtlDays: 30,
  loginFailureWindowMinutes: 15,
  loginMaxFailuresPerAccount: 5,
  loginMaxFailuresPerIp: 30,
  /** ours: failed registrations (taken number, wrong code) per code and per address in the same window. */
  registerMaxFailuresPerCode: 5,
  registerMaxFailuresPerIp: 20,
  /** ours: how long a login captcha may be answered. */
  captchaTtlSeconds: 300,
  passwordMinLength: 6,

  // call catalogue
  /** part 2 §3: a work's name defaults to 未命名. */
  defaultWorkName: '未命名',
  /** A work left 未命名 is named after this many first characters of its script (workNameOr). */
  workNameFromScriptChars: 12,
  /** part 2 §7: save-to-assets names are the first 15 characters of the record's desc. */
  analyseNameMaxChars: 15,
  /** ours: names of avatars, voices, works, materials, images and presets. */
  nameMaxChars: 50,
  /** ours: generation prompts and negative prompts. */
  promptMaxChars: 2000,
  /** ours: one chat message. */
  chatMaxChars: 4000,
  /** ours: earlier turns of a conversation sent upstream with a new message (the newest ones). */
  chatHistoryTurns: 20,
  /** part 2 §9: the typing effect of a chat answer, ms per character. */
  chatTypingMs: 30,
  /** ours: the typing effect catches up when this many characters wait (a long answer does not trail for minutes). */
  chatTypingCatchUpChars: 60,
  /** ours: a keep-alive comment on the answer stream every so many ms while upstream is silent (r1 thinks long). */
  chatKeepAliveMs: 15_000,
  /** ours: a text material (a saved chat answer). */
  textMaterialMaxChars: 20_000,
  /** ours: a pasted short-video link. */
  linkMaxChars: 2000,
  /** ours: a multi-scene work's scene count. */
  sceneMaxCount: 100,

  /**
   * ours: the dubbing studio (/store/dubbing/index): a project's lines, characters (pause markers and emotion marks
   * not counted) and roles; the silence between lines; background music's level under speech and its fades; a
   * channel's dubbing price is per `priceUnitChars` characters.
   */
  dubbing: {
    maxLines: 100,
    maxChars: 10_000,
    maxRoles: 5,
    roleNameMaxChars: 10,
    gap: { min: 0, max: 5, step: 0.1, default: 0.3 },
    bgmVolume: { min: 0.05, max: 1, step: 0.05, default: 0.3 },
    bgmFadeInSeconds: 1.5,
    bgmFadeOutSeconds: 2.5,
    priceUnitChars: 100,
    historyPageSize: 10,
  },
  /**
   * ours: AI music (/store/music/index): a song's price unless the operator's music_credits says otherwise; the
   * description, title and lyrics limits (MiniMax takes prompts up to 2000 and lyrics up to 3500 characters); the
   * loudness published and generated tracks are normalised to; the history page.
   */
  music: {
    defaultCredits: 50,
    promptMaxChars: 2000,
    lyricsMinChars: 10,
    lyricsMaxChars: 3500,
    titleMaxChars: 50,
    moodMaxChars: 20,
    loudnessLufs: -16,
    historyPageSize: 10,
    bgmVolume: { min: 0.05, max: 1, step: 0.05, default: 0.3 },
    bgmFadeInSeconds: 1.5,
    bgmFadeOutSeconds: 2.5,
  },
  /**
   * ours: AI super employee bots: a bot's price per answer unless the operator sets one (the copy chat's), the most
   * an operator may set, and the lengths of what an operator writes.
   */
  bot: {
    defaultAnswerCredits: 10,
    maxAnswerCredits: 1000,
    typeMaxChars: 20,
    descMaxChars: 200,
    welcomeMaxChars: 500,
    promptMaxChars: 8000,
    /** One sentence the talking screen has spoken at a time. */
    sentenceMaxChars: 200,
    /** Hold to talk: one recording's length and size, and the containers a browser's MediaRecorder makes (and wav/mp3/m4a). */
    hearMaxSeconds: 60,
    hearMaxBytes: 2 * 1024 * 1024,
    hearFormats: ['webm', 'ogg', 'wav', 'mp3', 'm4a'],
    /** Recordings heard per user a minute (each is a paid call at the recognition provider). */
    hearPerMinute: 20,
  },
  /**
   * ours: super replica (/explosiveAnalysis, issue 30): each chat answer is priced as one (chatAnswerCredits, refunded
   * when refused); a video analysis adds the copy extraction's price (copywrite.credits). Field sizes, list pages,
   * how many personas and products one user keeps, the script variants of one 仿写, the lengths a script may ask for.
   */
  replica: {
    nameMaxChars: 30, fieldMaxChars: 500, descriptionMaxChars: 4000, topicMaxChars: 100, maxPrice: 1_000_000,
    pageSize: 10, maxPersonas: 50, maxProducts: 100, variants: 3, topics: 6, scriptSeconds: [15, 30, 60],
  },
  /**
   * ours: one-click creation (/cozeVideo, issue 29): at most this many scenes and characters of script; a topic's
   * shortest length; a title card's length and seconds on screen; the storyboard proposal's scene lengths (seconds, estimated at the voice's speed); B-roll seconds
   * priced at the multi-scene rate (avatar seconds at the chosen channel's); the history page.
   */
  oneclick: {
    maxScenes: 30,
    maxChars: 3000,
    topicMinChars: 5,
    topicMaxChars: 200,
    titleMaxChars: 20,
    titleSeconds: 2,
    sceneSeconds: { min: 2.5, target: 5, max: 8 },
    brollCreditsPerSecond: 15,
    historyPageSize: 10,
    defaultChannel: 'lip',
    /** The latest cover time a submission may name (seconds; a later one than the video's end takes its last frame). */
    coverMaxSeconds: 3600,
  },
  /**
   * ours: 超级助手 (issue 32): a question's length, how many rounds of tool calls one request may take, the items one
   * plan may hold, how much of a tool's answer the model reads back, and how many background tasks the list shows.
   */
  /**
   * ours: 批量创作 (issue 35): rows a batch may hold (a row's script is scriptMaxChars, as at /create), the name of an
   * unnamed batch, and the fair queue's limit on one user's works rendering at once.
   */
  batch: { maxRows: 100, defaultName: '未命名批次', perUserRunning: 2 },
  helper: { questionMaxChars: 2000, maxRounds: 6, maxItems: 10, toolAnswerMaxChars: 6000, planListSize: 20, labelClipChars: 24, historySize: 50, historyTurns: 6, titleMaxChars: 30 },
  /**
   * ours: the public API (issue 34): keys a user may hold, requests and works a key may start a minute, the largest
   * page, the deliveries the key page shows, and how long a webhook is retried (its first retry's delay, doubling).
   */
  openApi: { maxKeys: 10, requestsPerMinute: 60, worksPerMinute: 10, maxPageSize: 100, deliveryLogSize: 20, webhookRetryHours: 24, webhookFirstRetrySeconds: 30, webhookTimeoutMs: 10_000 },
} as const;

/** Channel api codes seen in the specification, plus our own offline engine. */
export const CHANNEL_APIS = ['fish', 'hs', 'xf', 'mm', 'nw', 'kyy', 'ou', 'gj', 'df', 'fy', 'local', 'lip'] as const;
export type ChannelApi = (typeof CHANNEL_APIS)[number];

/** Fallback titles (part 1 §1): both readings are supported; the Chinese one is the default. */
export const FALLBACK_SITE_TITLE = 'AI超级分身';
export const FALLBACK_SITE_TITLE_EN = 'AI Super Avatar';
export const FALLBACK_VOICE_TITLE = '超级分身';
