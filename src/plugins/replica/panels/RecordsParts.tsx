/** The form of a persona or product (one input per field) and the card grid both lists use. */
import type { ReactNode } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, TextArea } from '@blueprintjs/core';
import { LIMITS } from '../../../contract';
import type { FormField } from '../replica-view';

export function RecordForm<K extends string>(props: {
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
export function RecordCard(props: { title: string; image?: string; lines: [string, string][]; onEdit: () => void; onDelete: () => void; testId: string }) {
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
