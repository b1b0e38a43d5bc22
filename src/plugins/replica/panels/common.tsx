/** Parts every super-replica screen shares: the missing-engine notice, the persona/product pickers, script variants. */
import type { ReactNode } from 'react';
import { Button, Callout, TextArea } from '@blueprintjs/core';
import { MSG } from '../../../contract';
import { HTMLSelect, RecordOptions, useStore, useValue } from '../../../core';
import type { ReplicaState } from '../replica-state';
import { PERSONAS_ROUTE, type Intent } from '../replica-view';

type Screen = ReturnType<ReplicaState['openIndex']>;
type Base = Pick<Screen, 'engine' | 'personas' | 'products' | 'personaId$' | 'productId$' | 'goCreate' | 'goOneclick'>;

/** 文案引擎尚未配置 while there is none (personas and products still work). */
export function ChatMissing({ screen }: { screen: Pick<Base, 'engine'> }) {
  const engine = useStore(screen.engine).value;
  if (!engine || engine.ready) return null;
  return (
    <Callout intent="warning" icon="warning-sign" className="rp-missing" data-testid="replica-chat-missing">
      {MSG.replicaChatMissing}
    </Callout>
  );
}

/** The persona (required) and product (optional) an answer is written for. */
export function Picker({ screen }: { screen: Base }) {
  const personas = useStore(screen.personas).value?.list ?? [];
  const products = useStore(screen.products).value?.list ?? [];
  if (!personas.length) {
    return (
      <Callout icon="id-number" className="rp-picker-empty">
        还没有人设，先去 <a href={`#${PERSONAS_ROUTE}`}>我的人设</a> 建一个
      </Callout>
    );
  }
  return (
    <div className="rp-picker">
      <NamedSelect label="人设" items={personas} value$={screen.personaId$} testId="replica-persona" />
      <NamedSelect label="产品（可选）" items={products} value$={screen.productId$} none="不带产品" testId="replica-product" />
    </div>
  );
}

/** One of the pickers: a labelled select of named records by id, with a first option for none when `none` names it. */
function NamedSelect({ label, items, value$, none, testId }: { label: string; items: { id: number; name: string }[]; value$: Base['personaId$']; none?: string; testId: string }) {
  const value = useValue(value$);
  return (
    <label>
      <span>{label}</span>
      <HTMLSelect value={value} onChange={(e) => value$.next(Number(e.target.value))} data-testid={testId} fill>
        {none !== undefined && <option value={0}>{none}</option>}
        <RecordOptions items={items} />
      </HTMLSelect>
    </label>
  );
}

/** A titled part of an analysis (video or account): its heading, then what it says (`text`: one paragraph). */
export function Part({ title, className, testId, text, children }: { title: ReactNode; className?: string; testId?: string; text?: string; children?: ReactNode }) {
  return (
    <section className={className ? `rp-part ${className}` : 'rp-part'} data-testid={testId}>
      <h4>{title}</h4>
      {text !== undefined && <p>{text}</p>}
      {children}
    </section>
  );
}

/** Script variants, each editable, copied, taken to /create or to one-click creation. */
export function VariantsView({ variants, screen }: { variants: Screen['variants']; screen: Pick<Base, 'goCreate' | 'goOneclick'> }) {
  const list = useValue(variants.list$);
  const saved = useValue(variants.saved$);
  const saving = useValue(variants.busy$);
  if (!list.length) return null;
  return (
    <ol className="rp-variants" data-testid="replica-variants">
      {list.map((v, i) => (
        <li key={i} className="rp-card rp-variant" data-testid="replica-variant">
          <header>
            <strong>{v.title}</strong>
            <span className="rp-muted">{[...v.text].length} 字</span>
          </header>
          <TextArea fill autoResize value={v.text} onChange={(e) => variants.edit(i, e.target.value)} data-testid="replica-variant-text" />
          <div className="rp-actions">
            {variants.changed(list, saved, i) && <Button icon="floppy-disk" text="保存修改" loading={saving} onClick={() => void variants.save(i)} data-testid="replica-variant-save" />}
            <Button icon="duplicate" text="复制" onClick={() => void navigator.clipboard?.writeText(v.text).catch(() => undefined)} />
            <Button icon="film" text="一键成片" disabled={!v.text.trim()} onClick={() => screen.goOneclick(v.text)} data-testid="replica-oneclick" />
            <Button intent="primary" icon="video" text="去创作" disabled={!v.text.trim()} onClick={() => screen.goCreate(v.text)} data-testid="replica-create" />
          </div>
        </li>
      ))}
    </ol>
  );
}

export function Pill({ intent, children }: { intent: Intent; children: React.ReactNode }) {
  return <span className={`rp-pill rp-pill-${intent}`}>{children}</span>;
}

/** A record in a recent list: its title, and a muted line under it. */
export interface RecentPick {
  key: number;
  title: React.ReactNode;
  meta: React.ReactNode;
  onPick: () => void;
}

/** A heading and its records to pick from, or 暂无记录 (the recent lists beside the replica screens). */
export function RecentPicks({ heading, picks }: { heading: string; picks: RecentPick[] }) {
  return (
    <>
      <h3>{heading}</h3>
      {!picks.length && <p className="rp-muted">暂无记录</p>}
      <ul>
        {picks.map((p) => (
          <li key={p.key}>
            <button type="button" className="rp-pick" onClick={p.onPick}>
              <span className="rp-title">{p.title}</span>
              <span className="rp-muted">{p.meta}</span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
