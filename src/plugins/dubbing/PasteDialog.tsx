/** 粘贴对白: `角色名：台词` a line; roles are made or matched by name, and the lines replace or follow the current ones. */
import { useEffect, useMemo, useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, Switch, Tag, TextArea } from '@blueprintjs/core';
import { LIMITS } from '../../contract';
import { parseDialogue } from './dub-draft';

export interface PasteDialogProps {
  isOpen: boolean;
  /** The current lines hold text (then replacing them is a choice, off by default). */
  hasLines: boolean;
  onClose(): void;
  /** Resolves true when the paste was taken. */
  onPaste(text: string, replace: boolean): boolean;
}

const EXAMPLE = '主持人：欢迎来到今天的节目。\n嘉宾：谢谢邀请，很高兴来到这里。\n主持人：那我们开始吧。';

export function PasteDialog({ isOpen, hasLines, onClose, onPaste }: PasteDialogProps) {
  const [text, setText] = useState('');
  const [replace, setReplace] = useState(true);
  useEffect(() => {
    if (!isOpen) return;
    setText('');
    setReplace(!hasLines);
  }, [isOpen, hasLines]);
  const parsed = useMemo(() => parseDialogue(text), [text]);
  const names = [...new Set(parsed.map((l) => l.role).filter(Boolean))] as string[];

  const submit = () => {
    if (onPaste(text, replace)) onClose();
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="粘贴对白" icon="clipboard" className="dub-paste-dialog">
      <DialogBody>
        <p className="dub-paste-hint">
          每行一句，格式为「角色名：台词」。同名的行由同一个角色说，没有角色名的行沿用上一行的角色；最多 {LIMITS.dubbing.maxRoles} 个角色、{LIMITS.dubbing.maxLines} 句。
        </p>
        <TextArea
          fill
          autoFocus
          rows={9}
          value={text}
          placeholder={EXAMPLE}
          onChange={(e) => setText(e.currentTarget.value)}
          className="dub-paste-text"
          data-testid="dub-paste-text"
        />
        <div className="dub-paste-found" data-testid="dub-paste-found">
          {parsed.length > 0 ? (
            <>
              <span>识别到 {parsed.length} 句</span>
              {names.map((n) => (
                <Tag key={n} minimal round>{n}</Tag>
              ))}
            </>
          ) : (
            <span>粘贴后这里显示识别到的角色与句数</span>
          )}
        </div>
        <Switch checked={replace} onChange={(e) => setReplace(e.currentTarget.checked)} label="替换当前的台词" disabled={!hasLines} className="dub-paste-replace" />
      </DialogBody>
      <DialogFooter
        actions={[
          <Button key="c" text="取消" onClick={onClose} />,
          <Button key="ok" intent="primary" text="导入台词" disabled={parsed.length === 0} onClick={submit} data-testid="dub-paste-confirm" />,
        ]}
      />
    </Dialog>
  );
}
