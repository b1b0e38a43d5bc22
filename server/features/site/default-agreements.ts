/**
 * Agreement templates for a fresh install: users must accept the user agreement and privacy terms to log in, so a
 * new site shows a complete, neutral text rather than 暂无内容. Users never see setup instructions: the operator
 * learns at the first start (server/infra/first-start.ts) how to replace them (`npm run admin -- site set eula=@文件`),
 * and the operator's text replaces a template entirely.
 */
export const DEFAULT_EULA =
  '<h2>一、协议的接受</h2><p>欢迎使用本平台提供的 AI 数字人视频创作服务。您勾选同意并登录或注册，即表示您已阅读、理解并同意本协议的全部条款。</p>' +
  '<h2>二、账号</h2><p>您应妥善保管账号与密码，对账号下的一切行为负责。发现账号被盗用时，请立即联系运营方。</p>' +
  '<h2>三、内容与授权</h2><p>您上传的视频、照片、声音与文字应为您本人所有或已获得权利人的明确授权。' +
  '克隆他人的形象或声音，须取得本人的书面同意。您对生成作品的使用承担全部责任。</p>' +
  '<h2>四、禁止行为</h2><p>不得利用本服务制作或传播违法违规、侵犯他人权益、冒充他人或虚假宣传的内容；' +
  '依法需要标识的 AI 生成内容，您应在发布时予以标识。</p>' +
  '<h2>五、积分</h2><p>积分用于平台内的功能消费，按功能标价扣除，任务失败时退回。积分不可转让，不可兑换为现金。</p>' +
  '<h2>六、服务的变更与终止</h2><p>运营方可根据经营需要调整服务内容；对违反本协议的账号，运营方有权限制或终止服务。</p>' +
  '<h2>七、联系方式</h2><p>对本协议有任何疑问，请联系运营方。</p>';

export const DEFAULT_PRIVACY =
  '<h2>一、我们收集的信息</h2><p>账号信息（手机号、密码的不可逆摘要）；您主动上传的视频、音频、图片与文字；' +
  '为保障安全而记录的登录时间与 IP 地址；积分的获得与消费记录。</p>' +
  '<h2>二、信息的用途</h2><p>仅用于提供您请求的服务（如数字人克隆、声音克隆、视频合成）、账号安全与积分结算，不用于与服务无关的目的。</p>' +
  '<h2>三、第三方处理</h2><p>部分功能可能由运营方接入的第三方模型服务完成，相关素材仅为完成该任务而传输。</p>' +
  '<h2>四、存储与删除</h2><p>您的文件存放在运营方的存储中，仅通过有时效的签名地址访问。您可以随时删除自己的作品与素材。</p>' +
  '<h2>五、您的权利</h2><p>您可以查阅、更正、删除您的个人信息，或要求注销账号，请联系运营方办理。</p>' +
  '<h2>六、联系方式</h2><p>对本条款有任何疑问，请联系运营方。</p>';

export const DEFAULT_CLONE_USAGE =
  '<ol><li>只克隆您本人的声音，或已取得声音主人书面授权的声音。</li>' +
  '<li>不得使用克隆的声音冒充他人、实施诈骗或传播虚假信息。</li>' +
  '<li>发布含克隆声音的作品时，请按规定标识为 AI 生成内容。</li>' +
  '<li>违反本规范的，运营方有权删除相关声音并限制账号。</li></ol>';
