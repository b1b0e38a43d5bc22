/** A finished video analysis, rendered part by part: score, 开头钩子, 结构 with times, 情绪与节奏, 转化手法, 结尾引导, 可复用的句式. */
import type { VideoAnalysis } from '../../../contract';
import { clockOf, scoreIntent } from '../replica-view';
import { Part, Pill } from './common';

export function AnalysisView({ analysis: a }: { analysis: VideoAnalysis }) {
  return (
    <div className="rp-analysis" data-testid="replica-analysis">
      <div className="rp-score-row">
        <div className={`rp-score rp-score-${scoreIntent(a.score)}`} data-testid="replica-score">
          <strong>{Math.round(a.score)}</strong>
          <span>爆款分</span>
        </div>
        <p className="rp-summary">{a.summary}</p>
      </div>
      <Part title={<>开头钩子 <Pill intent="primary">前 3 秒</Pill></>} testId="replica-hook">
        <blockquote>{a.hook.text}</blockquote>
        <p>{a.hook.why}</p>
      </Part>
      <Part title="结构" testId="replica-structure">
        <ol className="rp-beats">
          {a.structure.map((b, i) => (
            <li key={i}>
              <span className="rp-time">
                {clockOf(b.start)}–{clockOf(b.end)}
              </span>
              <div>
                <strong>{b.beat}</strong>
                <span className="rp-muted">{b.purpose}</span>
              </div>
            </li>
          ))}
        </ol>
      </Part>
      <div className="rp-two">
        <Part title="情绪与节奏" text={a.emotion} />
        <Part title="结尾引导" text={a.ending} />
      </div>
      <Part title="转化手法">
        <div className="rp-chips">
          {a.persuasion.map((p, i) => (
            <Pill key={i} intent="success">
              {p}
            </Pill>
          ))}
        </div>
      </Part>
      <Part title="可复用的句式">
        <ul className="rp-patterns">
          {a.patterns.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      </Part>
    </div>
  );
}
