/** The page both lists are: personas and products, each a card grid with its form and delete confirmation. */
import type { ReactNode } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, NonIdealState, TextArea, type IconName } from '@blueprintjs/core';
import { LIMITS } from '../../../contract';
import { ConfirmDelete, PageHeader, useDeletionFlow, useValue } from '../../../core';
import type { RecordsScreen } from '../replica-state';
import { INDEX_ROUTE, type FormField } from '../replica-view';

type CardContent = Pick<RecordCardProps, 'title' | 'image' | 'lines'>;

export function RecordsPage<T extends { id: number; name: string }, K extends string>(props: {
  screen: RecordsScreen<T, Record<K, string>>;
  list: T[] | undefined;
  /** What the page is about: 人设 or 产品. */
  noun: string;
  icon: IconName;
  subtitle: string;
  emptyText: string;
  testId: string;
  cardTestId: string;
  card: (item: T) => CardContent;
  fields: readonly FormField<K>[];
  /** Something else the form waits for (an upload), besides saving. */
  busy?: boolean;
  /** More of the form, after its fields (the product's picture). */
  children?: ReactNode;
}) {
  const { screen, list, noun } = props;
  const form = useValue(screen.form$);
  const saving = useValue(screen.saving$);
  const deletion = useDeletionFlow(screen.deletion);
  return (
    <div className="rp-page" data-testid={props.testId}>
      <div className="rp-inner">
        <PageHeader icon={props.icon} title={`我的${noun}`} subtitle={props.subtitle}>
          <div className="rp-head-tags">
            <a className="rp-link" href={`#${INDEX_ROUTE}`}>超级复刻首页</a>
            <Button intent="primary" icon="plus" text={`新建${noun}`} onClick={() => screen.add()} data-testid="replica-add" />
          </div>
        </PageHeader>
        {list && !list.length && <NonIdealState icon={props.icon} title={`还没有${noun}`} description={props.emptyText} />}
        <ul className="rp-grid">
          {list?.map((item) => (
            <RecordCard key={item.id} testId={props.cardTestId} {...props.card(item)} onEdit={() => screen.edit(item)} onDelete={() => deletion.ask(item)} />
          ))}
        </ul>
      </div>
      <RecordForm
        title={form?.id ? `编辑${noun}` : `新建${noun}`}
        isOpen={!!form}
        fields={props.fields}
        value={form?.value}
        onChange={(patch) => screen.change(patch)}
        onSave={() => void (props.busy ? undefined : screen.save())}
        onClose={() => screen.close()}
        saving={saving || !!props.busy}
      >
        {props.children}
      </RecordForm>
      <ConfirmDelete deletion={deletion} title={`删除${noun}`} text={`确定删除「${deletion.target?.name ?? ''}」吗？`} classPrefix="rp" />
    </div>
  );
}

function RecordForm<K extends string>(props: {
  title: string;
  isOpen: boolean;
  fields: readonly FormField<K>[];
  value: Record<K, string> | undefined;
  onChange: (patch: Partial<Record<K, string>>) => void;
  onSave: () => void;
  onClose: () => void;
  saving: boolean;
  children?: ReactNode;
}) {
  const { fields, value } = props;
  return (
    <Dialog isOpen={props.isOpen} onClose={props.onClose} title={props.title} className="rp-dialog" canOutsideClickClose={false}>
      <DialogBody>
        <form
          className="rp-form"
          onSubmit={(e) => {
            e.preventDefault();
            props.onSave();
          }}
        >
          {fields.map((f) => (
            <FormGroup key={f.key} label={f.label} className={f.long ? 'rp-wide' : ''}>
              {f.long ? (
                <TextArea fill value={value?.[f.key] ?? ''} placeholder={f.placeholder} maxLength={LIMITS.replica.fieldMaxChars} onChange={(e) => props.onChange({ [f.key]: e.target.value } as Partial<Record<K, string>>)} data-testid={`replica-field-${f.key}`} />
              ) : (
                <InputGroup fill value={value?.[f.key] ?? ''} placeholder={f.placeholder} maxLength={f.key === 'name' ? LIMITS.replica.nameMaxChars : LIMITS.replica.fieldMaxChars} onChange={(e) => props.onChange({ [f.key]: e.target.value } as Partial<Record<K, string>>)} data-testid={`replica-field-${f.key}`} />
              )}
            </FormGroup>
          ))}
          {props.children}
          <button type="submit" hidden />
        </form>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="取消" onClick={props.onClose} />
            <Button intent="primary" icon="floppy-disk" text="保存" loading={props.saving} onClick={props.onSave} data-testid="replica-save" />
          </>
        }
      />
    </Dialog>
  );
}

/** One card of a list: its picture (products), title, lines, and edit/delete. */
interface RecordCardProps {
  title: string;
  image?: string;
  lines: [string, string][];
  onEdit: () => void;
  onDelete: () => void;
  testId: string;
}

function RecordCard(props: RecordCardProps) {
  return (
    <li className="rp-card rp-record" data-testid={props.testId}>
      {props.image !== undefined && <div className="rp-thumb">{props.image ? <img src={props.image} alt="" /> : <span>暂无图片</span>}</div>}
      <div className="rp-record-body">
        <strong className="rp-title">{props.title}</strong>
        <dl>
          {props.lines.filter(([, v]) => v).map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      </div>
      <div className="rp-actions">
        <Button icon="edit" text="编辑" onClick={props.onEdit} />
        <Button icon="trash" variant="minimal" intent="danger" text="删除" onClick={props.onDelete} />
      </div>
    </li>
  );
}
