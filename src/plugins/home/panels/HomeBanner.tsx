import { Button } from '@blueprintjs/core';
import type { SiteInfo } from '../../../contract';

/** The operator's banner image (site setting `banner`) or, without one, our own gradient with a headline. */
export function HomeBanner({ site, onCreate, onCustomize }: { site: SiteInfo | null; onCreate: () => void; onCustomize: () => void }) {
  const image = site?.banner?.trim();
  const style = image ? { backgroundImage: `url("${encodeURI(image)}")` } : undefined;
  return (
    <section className={`home-banner${image ? ' with-image' : ''}`} style={style} data-testid="home-banner">
      <div className="home-banner-content">
        {!image && (
          <>
            <div className="home-banner-kicker">AI 数字人 · 声音克隆 · 一键成片</div>
            <h1 className="home-banner-title">打造你的专属 AI 数字分身</h1>
            <p className="home-banner-text">上传一段视频克隆形象，配上克隆声音，输入文案即可生成口播视频。</p>
          </>
        )}
        <div className="home-banner-actions">
          <Button intent="primary" size="large" icon="video" text="创建视频" onClick={onCreate} data-testid="banner-create" />
          <Button size="large" icon="new-person" text="定制数字人" className="home-banner-secondary" onClick={onCustomize} data-testid="banner-customize" />
        </div>
      </div>
    </section>
  );
}
