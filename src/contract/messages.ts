/**
 * Every user-facing message, verbatim from the specification (both documents),
 * plus the few messages the specification leaves to us (marked "ours").
 * Client and server both read from here; no message is typed twice.
 */
export const MSG = {
  // ---- generic
  ok: '操作成功！',
  /** ours: any envelope failure (bad signature, stale timestamp, undecryptable data, oversized body). */
  envelopeRejected: '请求校验失败，请刷新页面后重试',
  /** ours: code 100. */
  sessionExpired: '登录已过期，请重新登录',
  /** ours: a server-side failure that is not the user's fault. */
  serverError: '服务器繁忙，请稍后再试',
  /** /api/health/ready when the database or the storage does not answer, or the process is shutting down. */
  serviceNotReady: '服务暂不可用，请稍后重试',
  /** ours: 30 s timeout or unreachable server. */
  networkError: '网络异常，请检查网络后重试',
  /** ours: request fields that fail the contract's schema (prefix; the field's own message follows). */
  badRequest: '请求参数有误',
  /** ours: a call whose feature is not in service yet. */
  comingSoon: '该功能即将上线，敬请期待',
  notFound: '内容不存在或已被删除',
  tooManyRequests: '操作过于频繁，请稍后再试',

  // ---- the workbench (ours)
  /** ours: closing a page that holds text not yet submitted (its draft stays on this device). */
  closeUnsaved: (title: string) => `「${title}」中有尚未提交的内容。草稿已保存在本机，再次打开时恢复。确定关闭该页面吗？`,
  /** ours: beside every price estimate: what is charged is the real length. */
  estimateSettles: '预估时长按字数、语速和停顿计算，积分按实际合成时长结算',
  /** ours (operator CLI): public avatars and voices are told apart by name only. */
  publicNameTaken: (kind: '数字人' | '声音' | '音乐', name: string) => `已有名为「${name}」的公共${kind}，用户无法区分同名项；请用 --name 换一个名称`,

  // ---- login and accounts (part 1 §5, §8)
  loginUsernameRequired: '请输入账号',
  loginPasswordRequired: '请输入密码',
  loginAgreementRequired: '请阅读并同意用户协议和隐私条款',
  loginSucceeded: '登录成功',
  /** ours: one message for an unknown user or a wrong password, so accounts cannot be probed. */
  loginFailed: '账号或密码错误',
  loginRateLimited: '登录尝试过于频繁，请15分钟后再试',
  /** ours: an account with repeated failures needs the captcha (README: login limits). */
  captchaRequired: '请输入验证码',
  captchaWrong: '验证码错误，请重新输入',
  /** ours: too many wrong old passwords on the password change. */
  passwordAttemptsLimited: '原密码错误次数过多，请15分钟后再试',
  /** ours: too many failed registrations for one code or from one address. */
  registerAttemptsLimited: '注册尝试过于频繁，请15分钟后再试',
  registerSucceeded: '注册成功，已为您兑换积分',
  registerPhoneInvalid: '请输入正确的手机号',
  registerCodeRequired: '请输入兑换码',
  usernameTaken: '该手机号已注册',
  logoutSucceeded: '已退出登录',

  // ---- password change (part 1 §5)
  newPasswordRequired: '请输入新密码',
  confirmPasswordRequired: '请再次输入新密码',
  passwordMismatch: '两次输入新密码不一致!',
  oldPasswordRequired: '请填写原密码',
  oldPasswordWrong: '原密码错误',
  passwordTooShort: '密码至少6位',
  passwordChanged: '密码修改成功，请重新登录',
  passwordPlaceholder: '至少6位，包含数字和字母',

  // ---- credits and space (part 1 §8)
  redeemSucceeded: '兑换成功',
  redeemedCredits: (n: number) => `您已成功兑换${n}积分`,
  spaceExpandAtLimit: '您已扩容至上限！',
  spaceExpandCancelled: '已取消扩容',
  noNotices: '暂无公告！',

  // ---- confirmations (part 1 §8, part 2 §8)
  deleteCancelled: '已取消删除',
  confirmCancelled: '已取消确认',
  cancelled: '已取消',
  saveCancelled: '已取消保存',

  // ---- avatar clone (part 1 §5)
  cloneConsentRequired: '请阅读并同意《本平台音色克隆使用规范》',
  avatarNameRequired: '请给您创建的视频起一个名称',
  avatarVideoRequired: '请上传视频',
  avatarVideoInvalid: '请上传500M以内的MP4/MOV格式的视频',

  // ---- voice clone (part 1 §5)
  voiceNameRequired: '请给您创建的声音起一个名称',
  voiceAudioRequired: '请上传音频',
  renameNameRequired: '请填写名称后保存',
  voiceXfEditRefused: '该渠道的声音，仅支持手持设备的录音修改！',
  voiceTraining: '声音训练中，暂时无法选择',
  voiceFailed: '声音训练失败，无法选择',
  auditionFailed: '声音合成失败，请重新尝试',
  /** ours: LIMITS.audition reached. */
  auditionTooFrequent: '试听太频繁，请稍后再试',
  /** ours */
  voiceNoModificationsLeft: '该声音已没有修改次数',
  /** ours */
  voiceNameLocked: '该声音的名称不可修改',
  /** ours: the spec allows deleting only when remained_times = 0. */
  voiceDeleteNeedsNoModifications: '该声音还有修改次数，确认或用完修改次数后才能删除',
  /** ours */
  voiceAlreadyConfirmed: '该声音已确认，不能再次确认',
  /** ours: public voices take their parameters with each creation instead. */
  publicVoiceSettingsPerWork: '公共声音的参数随创作提交，无需保存',
  /** ours */
  voiceSettingsSaved: '声音参数已保存',

  // ---- successes (part 1 §8, part 2 §8)
  cloneSucceeded: '克隆成功',
  uploadSucceeded: '上传成功',
  deleteSucceeded: '删除成功',
  confirmSucceeded: '确认成功',
  renameSucceeded: '名称修改成功！',
  submitSucceeded: '提交成功',
  saveSucceeded: '保存成功',
  writingSucceeded: '文案生成成功！',
  modifySucceeded: '修改成功！',
  copySucceeded: '复制成功!',
  savedToMaterial: '保存成功，系统处理完会在素材库中显示',

  // ---- failures (part 1 §8, part 2 §8)
  uploadFailed: '上传失败，请重新上传',
  downloadSucceeded: '下载成功',
  downloadFailed: '下载失败',
  downloadSucceededTool: '下载成功！',
  downloadFailedTool: '下载失败！',
  copyFailed: '复制失败，请手动复制',

  // ---- single creation (part 2 §5)
  avatarRequired: '请选择数字分身（视频）',
  scriptRequired: '请输入台词',
  voiceRequired: '请选择声音',
  audioFileRequired: '请上传音频文件',
  auditionNeedsTextAndVoice: '请输入试听文本和选择数字声音',
  textRequired: '请输入文本！',
  topicRequired: '请填写主题描述！',
  cursorOutsideEditor: '光标不在可编辑区域内',
  gjDurationInvalid: '该通道要求数字人视频时长在30到300秒之间',
  scriptTooLong: (max: number) => `台词不能超过${max}字`,
  submitAlert: '提交成功，视频合成需要一些时间，请到作品页查看',

  // ---- multi-scene (part 2 §5)
  sceneTextRequired: '请填写文本内容',
  sceneAudioRequired: '请上传音频',
  applyVoiceNeedsVoice: '请先选择声音',

  // ---- pet and person images (part 2 §5)
  petNameRequired: '请填写宠物名称！',
  petImageRequired: '请上传宠物图片！',
  personNameRequired: '请填写人物图片名称！',
  /** The spec writes 人物图片图片 (a doubled word); issue 33 asked for it said once. */
  personImageRequired: '请上传人物图片！',
  imageTooLarge: '上传头像图片大小不能超过 10MB!',
  /** ours: a picture that is not the user's nor public (or was deleted). */
  photoMissing: '图片不存在或已被删除',
  /** ours: deleting a picture of the public AI library. */
  photoPublicUndeletable: '公共图片不能删除',
  /** ours: a picture work on a channel whose engine cannot render pictures (a remote lip-sync server). */
  photoChannelUnsupported: '该通道暂不支持图片视频，请选择本地口型或本地合成通道',
  /** ours: why a picture work moves only the camera, shown on its card. */
  photoMotionNoFace: '未检测到可驱动的正脸，以图片镜头缓动呈现（未做口型）',
  photoMotionChannel: '所选通道不做口型，以图片镜头缓动呈现',
  /** ours: a pet picture without a marked mouth, on its card; and the upload dialog's hint. */
  photoMotionNoMouth: '未标出宠物嘴巴位置，以图片镜头缓动呈现（上传时点击图片可标出嘴巴）',
  photoMouthHint: '点击图片标出宠物嘴巴的位置（可选）：标出后，宠物视频的嘴会随台词开合',
  photoMouthMarked: '已标出嘴巴位置，再次点击可调整',
  /** ours: a mouth mark outside the picture, or only one of its two coordinates. */
  photoMouthInvalid: '嘴巴位置无效，请在图片上重新点击标出',

  // ---- extraction and translation (part 2 §5)
  extractVideoInvalid: '请上传500MB以内的视频',
  translationVideoInvalid: '请上传500MB以内的MP4/MOV格式的视频',
  translationVideoRequired: '请上传视频！',
  translationSourceRequired: '请选择初始化语言！',
  translationTargetRequired: '请选择翻译后的语言！',
  /** ours: video translation (part 2 §2.7). */
  translationLangUnknown: '不支持所选语言',
  translationAsrMissing: '语音识别引擎尚未配置，暂不能翻译视频，请联系管理员',
  /** ours: no recognition engine, so the words come from the captions on screen (the offline caption reader). */
  translationCaptionsOffline: '未配置语音识别引擎：将离线读取视频画面中的字幕来翻译，请上传带字幕的视频',
  /** ours: read offline, the video showed no captions. */
  translationNoCaptions: '视频画面中没有识别到字幕（未配置语音识别引擎时只能翻译带字幕的视频）',
  translationVideoMissing: '视频不存在或已被删除，请重新上传',
  translationVideoTooLong: '视频不能超过10分钟',
  translationRecordMissing: '翻译记录不存在',
  translationNoSegments: '语音识别服务没有返回带时间的分段，无法对齐配音',
  translationNoSpeech: '视频中没有识别到说话的声音',
  translationNoSound: '视频没有声音，无法翻译',
  translationAsrFailed: '语音识别失败，请稍后重试',
  translationLinesMismatch: '翻译结果与原句数量不一致，请稍后重试',
  translationChatMissing: '翻译引擎（文案引擎）尚未配置，请联系管理员',
  translationFailedUnknown: '视频翻译失败',
  translationFailed: (why: string) => `${why}，积分已退回`,
  translationBusy: '视频正在翻译中，完成后才能删除',
  translationNoFace: '未检测到正脸，已只替换声音，按仅换声音计价',
  /** Which voice spoke a translation's dub (shown on its record). */
  translationVoiceCloned: (channel: string) => `配音：克隆原说话人的声音（${channel}）`,
  translationVoiceOffline: '配音：离线引擎，按原说话人的音高与语速',
  translationVoiceCloneSlow: '渠道的声音训练需要较长时间',
  translationVoiceCloneFailed: (why: string) => `配音：声音克隆未成功（${why}），已用离线引擎按原说话人的音高与语速`,
  /** ours: a pasted text without any http(s) link in it. */
  extractionLinkMissing: '未识别到链接，请粘贴完整的分享链接或视频地址',
  /** ours: a link we never fetch (not http/https, or an internal address). */
  extractionLinkRefused: '不支持该链接，请粘贴短视频分享链接或视频文件地址',
  /** ours: a platform link while the operator has set no parse engine (direct video links still work). */
  parseEngineMissing: '链接解析服务尚未配置，请联系管理员（可直接粘贴视频文件地址）',
  /** ours: an uploaded video for audio extraction that is not the user's (or was deleted). */
  extractionVideoMissing: '视频不存在或已被删除，请重新上传',
  /** ours: a record that is not the user's, or not finished, saved to assets. */
  extractionRecordMissing: '记录不存在或尚未完成',
  /** ours: why an extraction failed (the record shows it), and what was given back. */
  parseLinkExpired: '链接已失效或无法解析',
  parseNotVideo: '该链接不是视频作品',
  parseNoAudio: '该作品没有可提取的声音',
  parseTimeout: '解析服务响应超时',
  parseUnavailable: '解析服务暂时不可用',
  parseBadReply: '解析服务返回的内容无法识别',
  fetchAddressRefused: '视频地址不允许访问',
  fetchTooLarge: '视频超过500MB',
  fetchTimeout: '视频下载超时',
  fetchFailed: '视频下载失败',
  fetchTooManyRedirects: '视频地址跳转次数过多',
  extractMediaInvalid: '链接内容不是可播放的视频',
  extractNoSound: '视频中没有声音',
  extractFailedUnknown: '处理失败',
  extractionFailed: (why: string, free: boolean) => `${why}，${free ? '免费次数已退回' : '积分已退回'}`,

  // ---- generation (part 2 §5)
  promptRequired: '请输入描述词！',
  firstFrameRequired: '请选择或者上传首帧图！',
  referenceImageRequired: '请选择或者上传参考图！',
  presetTitleRequired: '请填写预设名称！',
  presetContentRequired: '请填写预设内容！',
  highQualityMaintenance: '高品质通道维护中',

  // ---- credits (ours, where the spec leaves the server's words open)
  insufficientCredits: '积分不足，请先兑换积分',
  codeInvalid: '兑换码无效或已被使用',
  codeExpired: '兑换码已过期',
  guestDisabled: '游客体验暂未开放',
  guestCannotRedeem: '游客请先注册后再兑换',
  guestCannotExpand: '游客不能扩容，请先注册',
  guestLimit: '游客体验次数过多，请稍后再试',
  spaceFull: '存储空间不足，请扩容或删除不需要的文件',

  // ---- uploads (ours, beside the spec's own)
  audioInvalid: '请上传MP3/M4A/WAV格式的音频',
  audioDurationInvalid: '音频时长需在5秒到30分钟之间',
  videoDurationInvalid: '视频时长需在5秒到30分钟之间',
  videoResolutionInvalid: '视频分辨率需在360P到4K之间',
  imageInvalid: '请上传PNG/JPG格式的图片',
  imageTooSmall: '图片尺寸不能小于300像素',
  uploadExpired: '上传已过期，请重新上传',
  /** ours: the bucket refused a direct upload as larger than its policy allows (S3 EntityTooLarge). */
  bucketTooLarge: '文件超过了存储服务允许的大小，请压缩后重新上传',
  /** ours: the bucket's policy refused the file's type (S3 AccessDenied on the Content-Type condition). */
  bucketTypeRefused: '存储服务不接受该文件类型，请换一个文件',
  /** ours: the bucket answered with another refusal; its S3 error code is named for the operator. */
  bucketRefused: (code: string) => `存储服务拒绝了上传（${code}），请稍后重试或联系管理员`,
  /** ours: no answer the page may read: the bucket is unreachable, or its CORS rule does not allow this site. */
  bucketUnreachable: '无法连接存储服务：请检查网络；若持续出现，请联系管理员检查存储桶的跨域（CORS）设置',

  // ---- media pipeline (ours)
  channelUnavailable: '该通道暂未开通，请选择其他通道',
  avatarNotReady: '数字人还在克隆中，请稍后再试',
  speechEngineMissing: '请先试听生成音频后再提交',
  workBusyOrMissing: '作品不存在或正在生成中',
  localEngineNote: '本地引擎不做口型同步',
  /** ours: a work waiting in our queue for a remote lip-sync engine (works card, under the channel's waiting line). */
  workQueueAhead: (n: number) => (n > 0 ? `排队中，前面还有 ${n} 个` : '排队中，即将开始'),
  /** ours: a work on a remote lip-sync engine, with the engine's progress. */
  workProgress: (percent: number, secondsLeft?: number) =>
    `合成中 ${percent}%${secondsLeft === undefined ? '' : `，剩余约 ${secondsLeft < 60 ? `${secondsLeft} 秒` : `${Math.ceil(secondsLeft / 60)} 分钟`}`}`,
  /** ours: a remote lip-sync engine kept answering "running" past the render job's limit. */
  lipSyncTimedOut: '唇形合成超时，积分已退回',
  /** ours: the remote lip-sync engine lost the task (restarted) more often than the render job resubmits. */
  lipSyncLost: '唇形合成服务多次丢失任务，积分已退回',
  /** ours: what the remote lip-sync engine handed back does not play as a video. */
  lipSyncResultInvalid: '唇形合成结果无法播放，积分已退回',

  // ---- copywriting engine: polish, AI writing (ours)
  /** ours: polish or AI writing while the operator has not configured the chat engine. */
  chatEngineMissing: '文案引擎尚未配置，请联系管理员',
  /** ours: the provider refused the operator's API key (401/403). */
  chatEngineAuthFailed: '文案引擎密钥无效，请联系管理员',
  /** ours: the provider's account has no balance left (402). */
  chatEngineNoBalance: '文案引擎账户余额不足，请联系管理员',
  /** ours: the provider's rate limit (429). */
  chatEngineBusy: '文案引擎繁忙，请稍后再试',
  /** ours: the provider failed (5xx). */
  chatEngineDown: '文案引擎暂时不可用，请稍后再试',
  /** ours: no answer within the engine's timeout. */
  chatEngineTimeout: '文案引擎响应超时，请稍后再试',
  /** ours: the provider's host could not be reached. */
  chatEngineUnreachable: '无法连接文案引擎，请稍后再试',
  /** ours: an answer that is not a chat completion (broken JSON, no choices, empty text). */
  chatEngineBadReply: '文案引擎返回的内容无法识别，请稍后再试',
  /** ours: the provider refused the request itself (400, 404, 422: wrong base URL or model). */
  chatEngineRejected: '文案引擎配置有误，请联系管理员',
  /** ours: the provider's content filter stopped the answer. */
  chatContentBlocked: '内容未通过安全审核，请修改后重试',
  /** ours: a polish whose answer was cut at the length limit. */
  polishTooLong: '文本过长，请分段润色',

  // ---- text to image engine (ours)
  /** ours: text to image while the operator has not configured an image engine. */
  imageEngineMissing: '图片生成引擎尚未配置，请联系管理员',
  /** ours: the provider refused the operator's API key (401/403). */
  imageEngineAuthFailed: '图片生成引擎密钥无效，积分已退回',
  /** ours: the provider's account has no balance left (402). */
  imageEngineNoBalance: '图片生成引擎账户余额不足，积分已退回',
  /** ours: the provider's rate limit (429), after the job's retries. */
  imageEngineBusy: '图片生成引擎繁忙，积分已退回，请稍后再试',
  /** ours: the provider failed (5xx), after the job's retries. */
  imageEngineDown: '图片生成引擎暂时不可用，积分已退回',
  /** ours: no answer within the engine's timeout, after the job's retries. */
  imageEngineTimeout: '图片生成引擎响应超时，积分已退回',
  /** ours: the provider's host could not be reached, after the job's retries. */
  imageEngineUnreachable: '无法连接图片生成引擎，积分已退回',
  /** ours: an answer without usable images (broken JSON, no images, a link that does not give a picture). */
  imageEngineBadReply: '图片生成引擎返回的内容无法识别，积分已退回',
  /** ours: the provider refused the request itself (400, 404, 422: wrong base URL or model, a prompt it will not draw). */
  imageEngineRejected: '图片生成请求被拒绝（描述词可能未通过审核），积分已退回',
  /** ours: some of the asked images came back; the rest are refunded. */
  imagePartlyMade: (made: number, asked: number) => `仅生成${made}/${asked}张，未生成部分的积分已退回`,
  /** ours: the reference image is not one of the user's uploaded images (or was deleted). */
  imageReferenceMissing: '参考图不存在，请重新上传',
  /** ours: a generation record that is not the user's, or no longer exists. */
  imageRecordMissing: '生成记录不存在',
  /** ours: delete while the images are being generated. */
  imageRecordBusy: '图片生成中，请完成后再删除',
  /** ours: save to material from a record that has no such image. */
  imageNotReady: '图片尚未生成完成',

  // ---- the dubbing studio (ours)
  /** ours: a line with no words (only spaces, pause markers or emotion marks). */
  dubLineEmpty: (n: number) => `第${n}句没有台词，请输入台词或删除该句`,
  /** ours: a line whose role has no voice yet. */
  dubLineNoVoice: (n: number) => `第${n}句还没有选择声音`,
  /** ours: a line-level refusal (voice training, failed or gone), prefixed with the line. */
  dubLine: (n: number, why: string) => `第${n}句：${why}`,
  dubLinesEmpty: '请至少添加一句台词',
  dubLinesInvalid: '台词数据格式有误，请刷新页面后重试',
  dubTooManyLines: (max: number) => `台词不能超过${max}句`,
  dubTooManyRoles: (max: number) => `最多${max}个角色`,
  dubRoleNeedsVoice: (name: string) => `请为角色「${name}」选择声音`,
  dubRecordMissing: '配音记录不存在或已删除',
  dubBusy: '配音正在生成中，完成后再操作',
  dubNotReady: '配音尚未生成完成',
  dubBgmMissing: '背景音乐不存在，请从素材库重新选择',
  /** ours: why a dub failed (the record shows it); `refunded` when credits were returned. */
  dubFailed: (why: string, refunded: boolean) => (refunded ? `${why}，积分已退回` : why),
  dubLineFailed: (n: number, why: string) => `第${n}句合成失败：${why}`,
  dubLineSilent: (n: number) => `第${n}句没有可朗读的内容`,
  dubVoiceGone: '声音已不可用，请重新选择',
  dubFailedUnknown: '配音生成失败，请稍后重试',
  /** ours: the dialogue paste found no `角色名：台词` line. */
  dubPasteEmpty: '没有识别到台词，请按「角色名：台词」每行一句粘贴',

  // ---- shell
  comingSoonPanel: '即将上线',

  // ---- call catalogue (ours: the specification leaves these to us)
  /** ours: a work submitted without a training channel. */
  channelRequired: '请选择训练通道',
  /** ours: credit log range with start after end. */
  dateRangeInvalid: '开始日期不能晚于结束日期',
  /** ours: a daily-chart range longer than LIMITS.dailyChartMaxDays. */
  dateRangeTooLong: '日期范围不能超过一年',
  /** ours: a date that is not YYYY-MM-DD. */
  dateInvalid: '日期格式有误',
  /** ours: translation with the same source and target language. */
  translationSameLanguage: '初始语言和翻译后的语言不能相同',
  /** ours: extraction without a link (part 2 §5: link validation is not shown). */
  extractionLinkRequired: '请输入视频链接',
  /** ours: a chat message with no text. */
  chatContentRequired: '请输入内容',
  /** ours: a chat stream opened for an answer that is already streaming elsewhere. */
  chatAnswerBusy: '该回答正在生成中，请稍候',
  /** ours: a chat send on a conversation whose previous answer is still being written. */
  chatSendBusy: '上一条回答还在生成中，请等它结束或停止后再发送',
  /** ours: a chat conversation or message id that is not the user's (or no longer exists). */
  chatNotFound: '会话不存在或已删除',
  /** ours: an answer that failed before any text arrived (its credits are not charged). */
  chatAnswerFailed: '回答生成失败，本次不扣积分',
  /** ours: an answer whose server stopped mid-stream (a crash or restart): kept as far as it got, and refunded. */
  chatAnswerInterrupted: '回答因服务重启而中断，本次不扣积分',
  /** ours: a multi-scene work with no scene. */
  sceneListEmpty: '请至少添加一个场景',
  /** ours: multi-scene content that is not a JSON list of scenes. */
  sceneContentInvalid: '场景数据格式有误，请刷新页面后重试',
  /** ours: a registered audio file over the size limit. */
  audioTooLarge: (mb: number) => `请上传${mb}MB以内的音频`,
  /** ours: a work submitted with more than one avatar source. */
  avatarConflict: '只能选择一个数字分身',
  /** ours: org_data of a video generation that is not JSON. */
  orgDataInvalid: '描述词数据格式有误',
  /** ours: text to video without a configured provider (there is no offline engine for it). */
  videoTextEngineMissing: '文生视频暂未接入生成服务，请联系管理员配置',
  /** ours: an image-to-video picture that is not the user's own upload or material, or a public sample. */
  videoImageUnusable: '图片不可用，请重新上传或从素材库选择',
  videoImageTooSmall: '图片尺寸不能小于300像素',
  videoRecordNotFound: '记录不存在或已删除',
  presetNotFound: '预设不存在或已删除',
  /** ours: a failed generation's reason when the provider gives none. */
  videogenFailed: '视频生成失败，积分已退回',
  videogenTimeout: '视频生成超时，积分已退回',
  /** ours: the provider's business codes as clear reasons (Kling 1000–1004, 1101/1102, 1301, 1302/1303, 5000+). */
  klingAuthFailed: '视频生成服务鉴权失败，请联系管理员检查密钥',
  klingAccountUnavailable: '视频生成服务账户欠费或资源包已用尽，请联系管理员',
  klingContentRejected: '描述词或图片未通过内容安全审核，请修改后重试',
  klingBusy: '视频生成服务繁忙，请稍后再试',
  klingServerError: '视频生成服务暂时不可用，请稍后再试',
  klingBadRequest: (detail: string) => `视频生成请求有误：${detail}`,
  klingUnreachable: '无法连接视频生成服务，请稍后再试',

  // ---- upload box, works and materials (ours)
  /** ours: a chosen file outside the upload's accepted formats. */
  uploadFormatInvalid: (formats: string) => `请上传${formats}格式的文件`,
  /** ours: more files than the upload allows. */
  uploadTooMany: (n: number) => `最多上传${n}个文件`,
  /** ours: the user cancelled an upload in progress. */
  uploadCancelled: '已取消上传',

  // ---- the offline lip-sync engine (ours): why a work's mouth was left as filmed, shown on its card
  lipSyncNoFace: '未检测到正脸，已按原视频循环播放',
  lipSyncFaceSmall: '人脸太小，已按原视频循环播放',
  lipSyncFaceTurned: '人脸角度过偏（需要正脸），已按原视频循环播放',
  lipSyncFaceUnsteady: '人脸在视频中时有时无，已按原视频循环播放',
  lipSyncAnalysisFailed: '人脸分析失败，已按原视频循环播放',
  /** ours: the waiting line of a work on the offline lip-sync channel. */
  lipSyncWaiting: '本地口型合成中，约为视频时长的1-2倍',

  // ---- AI music and the music library (ours)
  musicEngineMissing: '音乐生成引擎尚未配置，请联系管理员',
  musicTitleRequired: '请填写歌曲名称',
  musicPromptRequired: '请描述想要的音乐（风格、情绪、乐器、节奏等）',
  musicLyricsTooShort: (min: number) => `歌词太短，至少${min}个字，或留空由AI根据描述作词`,
  musicTaskMissing: '音乐记录不存在或已删除',
  musicBusy: '音乐正在生成中，完成后再操作',
  musicNotReady: '音乐尚未生成完成',
  musicTrackMissing: '背景音乐不存在或已删除，请重新选择',
  /** Why a task failed (the record shows it); its credits were returned. */
  musicFailed: (why: string) => `${why}，积分已退回`,
  musicFailedUnknown: '音乐生成失败，请稍后重试',
  musicUnreachable: '无法连接音乐生成服务，请稍后再试',
  musicBusyProvider: '音乐生成服务繁忙，请稍后重试',
  musicProviderDown: '音乐生成服务暂时不可用，请稍后重试',
  musicKeyInvalid: '音乐生成服务密钥无效，请联系管理员',
  musicBalance: '音乐生成服务账户余额不足，请联系管理员',
  musicSensitive: '描述或歌词含有敏感内容，请修改后重试',
  musicRejected: (detail: string) => `音乐生成服务拒绝了请求：${detail}`,
  musicResultInvalid: '音乐生成服务返回的音频无法使用，请稍后重试',
  musicLyricsFailed: '自动作词失败，请自行填写歌词后重试',
  musicBackgroundOn: '已设为背景音乐，可在配音与视频创作中选用',
  musicBackgroundOff: '已取消背景音乐',

  // ---- subtitles (ours)
  /** Burned-in captions asked for a multi-scene work that outputs only audio. */
  subtitlesAudioOnly: '仅音频作品没有画面，无法烧录字幕',
  /** Burned-in captions asked for an audio-driven work while no speech recognition is configured. */
  subtitlesNeedRecognition: '语音识别引擎尚未配置，音频驱动的作品暂不能添加字幕',
  /** On a work's card: captions were asked for but the speech gave no text to show. */
  subtitlesNone: '未识别到可显示的字幕，视频未烧录字幕',

  // ---- copy extraction (ours; /copywrite/index, issue 28)
  /** Why a record failed: neither the speech nor the picture gave any text (followed by what was given back). */
  copyNothingFound: '未识别到口播或字幕文案',
  /** A copy record that is not the user's, is gone, or has no copy yet. */
  copyRecordMissing: '记录不存在或尚未完成',
  copyTextRequired: '文案不能为空',
  /** A 二创 rewrite in the custom style without an instruction. */
  copyRewriteInstructionRequired: '请输入改写要求',
  /** A rewrite that failed before any text arrived (its credits are not charged). */
  copyRewriteFailed: '改写失败，本次不扣积分',
  // ---- AI super employee (ours; /employee, issue 32)
  botTypeRequired: '请填写分类',
  botNameRequired: '请填写名称',
  botAvatarRequired: '请提供形象图片或公共分身ID',
  botPromptRequired: '请提供系统提示词',
  /** A bot id that does not exist or was taken off the catalogue. */
  botMissing: '该员工不存在或已下架',
  /** A message to a bot the user has not employed. */
  botNotEmployed: '请先聘用该员工',
  /** A bot's avatar id that is no ready public avatar. */
  botAvatarInvalid: '公共分身不存在或尚未就绪',
  /** A bot's voice id that is no ready public voice. */
  botVoiceInvalid: '公共声音不存在或尚未就绪',
  botNameTaken: '已有同名员工',
  botSpeechNotInAnswer: '只能朗读这条回答里的文字',
  /** Voice input on /employee/talking (hold to talk): the recording, recognised, is sent as the message. */
  botHearNoEngine: '语音识别服务尚未配置，暂时只能打字对话',
  botHearAudioRequired: '请按住说话后再松开',
  botHearUnreadable: '没有听清，录音无法识别，请重新按住说话',
  botHearTooLong: (max: number) => `一次最多说${max}秒，请分几次说`,
  botHearTooLarge: '录音太大，请说短一点',
  botHearNothing: '没有听到说话，请靠近麦克风再说一次',
  botHearFailed: '语音识别失败，请稍后重试或打字输入',
  botHearMicDenied: '无法使用麦克风，请在浏览器设置里允许本站使用麦克风',
  botHearUnsupported: '当前浏览器不支持录音，请打字输入',

  // ---- a newcomer's first hour (ours, issue 33)
  /** A screen or panel whose code could not be fetched (the server unreachable); it retries by itself. */
  chunkLoadFailed: '页面加载失败，请检查网络连接。网络恢复后将自动重新加载。',
  /** A screen that failed while drawing (a bug, not the network). */
  screenFailed: '页面出现错误，请重新加载。',
  /** A paste past the script's limit keeps what fits and says so. */
  scriptTruncated: (max: number) => `台词不能超过${max}字，已保留前${max}字`,

  // ---- super replica (ours; /explosiveAnalysis, issue 30)
  /** Every call that asks the copywriting chat engine, while none is configured (personas and products still work). */
  replicaChatMissing: '文案引擎尚未配置，请联系管理员',
  replicaPersonaNameRequired: '请输入人设名称',
  replicaProductNameRequired: '请输入产品名称',
  replicaPersonaRequired: '请选择人设',
  replicaPersonaMissing: '人设不存在或已删除',
  replicaProductMissing: '产品不存在或已删除',
  replicaPersonasFull: (max: number) => `人设最多保存${max}个，请先删除不用的`,
  replicaProductsFull: (max: number) => `产品最多保存${max}个，请先删除不用的`,
  replicaImageMissing: '产品图片不存在，请重新上传',
  replicaAnalysisMissing: '分析记录不存在或尚未完成',
  replicaRecordMissing: '记录不存在或已删除',
  replicaDescriptionRequired: '请粘贴账号主页链接，或账号简介与近期作品描述',
  /** A profile link while the link-parse engine cannot read profiles (none set, or one without profile routes). */
  replicaProfileUnavailable: '链接解析服务尚未开通主页读取，请粘贴账号简介与近期作品描述',
  replicaProfileLinkMissing: '未识别到主页链接，请粘贴抖音或 TikTok 账号主页的分享链接',
  replicaTopicRequired: '请输入选题',
  replicaScriptTextRequired: '文案不能为空',
  /** The chat engine answered twice without the asked-for structure. */
  replicaAnswerInvalid: '文案引擎返回的内容格式有误，请稍后重试',
  /** A refused answer or analysis, and its credits given back. */
  replicaFailed: (why: string) => `${why}，积分已退回`,
  replicaFailedUnknown: '分析失败，请稍后重试',

  // ---- one-click creation (ours; /cozeVideo, issue 29)
  oneclickScenesRequired: '请至少保留一个分镜',
  oneclickScenesInvalid: '分镜数据格式有误，请刷新页面后重试',
  oneclickTooManyScenes: (max: number) => `分镜不能超过${max}个`,
  oneclickTooLong: (max: number) => `文案总字数不能超过${max}字`,
  oneclickSceneEmpty: (n: number) => `第${n}个分镜的文案不能为空`,
  oneclickBrollNoPicture: (n: number) => `第${n}个分镜是画面镜头，请为它选择一张图片`,
  oneclickPictureUnusable: (n: number) => `第${n}个分镜的图片不可用，请重新选择`,
  oneclickAvatarCloning: '所选数字人还在克隆中，请克隆完成后再生成',
  oneclickProjectMissing: '项目不存在或已删除',
  oneclickBusy: '该项目的视频正在生成中，请稍后再试',
  oneclickTopicTooShort: (min: number) => `主题至少${min}个字`,
  oneclickChatMissing: '文案生成引擎尚未配置，请直接粘贴文案',
  /** The cover's scene (封面) is not one of the storyboard's. */
  oneclickCoverScene: (n: number) => `封面所选的第${n}个分镜不存在，请重新选择封面`,

  // ---- a newcomer's first hour, second pass (ours; issue 33)
  /** The one sentence about lip sync, wherever the product speaks of it (clone dialog, channel dialog). */
  lipSyncSummary: '口型同步：选「本地口型」通道，嘴部在本机随台词开合（近似效果，需正脸出镜）；「本地合成」不做口型同步，只把视频循环在声音下面；运营方接入的专业通道口型更精细。',
  /** The preview's note for each kind of channel (the chosen one's shows). */
  lipChannelNote: '本地口型：嘴部在本机随台词开合（近似效果）；数字人需正脸出镜，未检测到正脸时按原视频循环。',
  localChannelNote: '本地引擎不做口型同步：本地合成把数字人视频循环播放在语音下面，口型不跟随语音。',
  remoteChannelNote: (name: string) => `${name}：由运营方接入的专业引擎合成，口型随台词同步。`,
  lipPictureNote: '本地口型：检测到正脸时嘴部随台词开合；宠物或未检测到正脸时以镜头缓动呈现，作品卡片会注明。',
  localPictureNote: '本地合成不做口型同步：图片以镜头缓动呈现。',
  /** Any upload of 0 bytes (client and server). */
  fileEmpty: '文件为空',
  /** An upload whose first bytes are no format we know (a text file named .mp4), by upload type. */
  fileUnrecognized: (type: 'video' | 'voice' | 'image') => `文件不是有效的${{ video: '视频', voice: '音频', image: '图片' }[type]}（无法识别格式）`,
  /** /store/extraction and /store/audioExtraction with no link parser: said before the user pastes a share link. */
  parseLinksOffline: '链接解析服务尚未配置：抖音、快手等平台的分享链接暂不能解析；直接的视频或音频文件地址（如以 .mp4 结尾的链接）仍可提取。',
  /** At a clone's submit: it has only started (the answer's 克隆成功 said it was done while it was still 克隆中). */
  cloneSubmitted: '已提交，正在克隆',
  /** When a clone submitted from this page ends, while the page is open. */
  avatarCloneReady: (name: string) => `数字人「${name}」克隆完成，可以开始创作了`,
  avatarCloneFailed: (name: string) => `数字人「${name}」克隆失败`,
  voiceCloneReady: (name: string) => `声音「${name}」克隆完成，可以使用了`,
  voiceCloneFailed: (name: string) => `声音「${name}」克隆失败`,
  /** The channel dialog's effect order, best first (derived from the channels there are). */
  effectOrder: (names: string[]) => `效果排序：${names.join(' > ')}`,
  /**
   * /multiples: which engine lip-syncs the avatar scenes (the same family as lipSyncSummary); `local` is the offline
   * engine on this machine, else the channel's remote one.
   */
  multiSceneLipSync: (name: string, local: boolean) =>
    local
      ? `口型同步：多场景的数字人场景由「${name}」通道在本机合成，嘴部随台词开合（近似效果，需正脸出镜）。`
      : `口型同步：多场景的数字人场景由「${name}」通道的专业引擎合成，口型随台词同步。`,
  /** A multi-scene submission when no lip-sync channel is enabled (fy without an engine and 本地口型 switched off). */
  multiSceneNoChannel: '多场景创作暂不可用：没有开通的口型通道，请联系管理员',
  /** Image to video made on this machine: beside the prompt, which only Kling requires. */
  videoPromptReferenceOnly: '选填：本机镜头运动不读描述词，仅随记录保存备查',

  // ---- one-click creation, topic and pictures (ours; issue 29)
  oneclickPictureTextRequired: '请先填写这个分镜的文案，再生成配图',
  oneclickImageMissing: '图片生成引擎尚未配置，请从图片素材中选择或上传图片',
  oneclickPaintChatMissing: '文案引擎尚未配置，无法自动配图，请从图片素材中选择或上传图片',
  oneclickNothingToPaint: '每个画面镜头都已有图片',
  oneclickPaintFailed: '配图生成失败，积分已退回',
  // ---- 超级助手 (ours; /helper/*, issue 32)
  helperPlanMissing: '任务不存在或已删除',
  helperPlanNotAwaiting: '该任务已确认或已取消',
  helperNothingToCancel: '没有可取消的子任务（已开始的无法取消）',
  helperToolUnknown: '没有这个操作',
  helperArgsInvalid: '操作参数格式有误',
  helperTooManyItems: (max: number) => `一次最多安排${max}项操作，请分批提出`,
  helperInterrupted: '执行被中断，请到作品列表查看结果',
  helperNoAnswer: '助手没有给出回答，请换个说法再试',
  /** The assistant names what a card spends on: an id the user may not use is refused before any card. */
  helperAvatarMissing: '找不到这个数字分身（只能使用我的或公共的数字分身）',
  helperVoiceMissing: '找不到这个声音（只能使用我的或公共的声音）',
  helperConversationMissing: '对话不存在或已删除',
  // ---- the public API (ours; issue 34)
  apiKeyNameRequired: '请填写密钥名称',
  apiKeyLimit: (max: number) => `最多只能创建${max}个API密钥，请先撤销不用的密钥`,
  apiKeyGuest: '游客不能创建API密钥，请先登录正式账号',
  apiKeyMissing: '密钥不存在或已撤销',
  apiKeyInvalid: 'API密钥无效或已撤销',
  apiKeyCreated: '密钥已创建，请立即复制保存，关闭后将无法再次查看',
  apiKeyRevoked: '密钥已撤销',
  idempotencyReused: '这个 Idempotency-Key 已用于另一个请求',
  idempotencyRunning: '相同 Idempotency-Key 的请求仍在处理，请稍后重试',
  webhookUrlInvalid: '回调地址须是公网可访问的 https 地址',
  webhookSaved: '回调地址已保存',
  webhookCleared: '已关闭回调通知',
  // ---- 批量创作 (ours; /batch, issue 35)
  batchRowsInvalid: '表格内容格式有误',
  batchEmpty: '表格里没有要创作的行',
  batchTooManyRows: (max: number) => `一个批次最多${max}行，请分成几批提交`,
  /** The whole batch refused: each bad row's number and reason. */
  batchRejected: (rows: readonly { index: number; error: string }[]) => `以下行有误，整批未提交：${rows.map((r) => `第${r.index}行：${r.error}`).join('；')}`,
  batchMissing: '批次不存在或已删除',
  batchNothingToCancel: '没有可取消的行（已开始的无法取消）',
  batchNothingToRetry: '没有失败的行',
  batchRowCancelled: '已取消，积分已退回',
  batchAvatarUnknown: (name: string) => `找不到名为“${name}”的数字人`,
  batchVoiceUnknown: (name: string) => `找不到名为“${name}”的声音`,
  batchChannelUnknown: (name: string) => `找不到名为“${name}”的通道`,
  batchClosest: (names: readonly string[]) => `，您是不是要找：${names.join('、')}`,
  batchFileUnreadable: '读取表格失败，请使用下载的模板（xlsx 或 csv）',
  batchNothingDone: '这个批次还没有完成的视频',
} as const;

export type MessageKey = keyof typeof MSG;
