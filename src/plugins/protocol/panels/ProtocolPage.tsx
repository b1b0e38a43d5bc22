import { useEffect, useState } from 'react';
import { Button, NonIdealState, Spinner } from '@blueprintjs/core';
import { API, PROTOCOL_TITLES, type ProtocolType } from '../../../contract';
import { SafeHtml, TOKENS, useService, type ApiClient, type Navigation, type PanelProps } from '../../../core';

const isProtocolType = (v: string | undefined): v is ProtocolType => v === 'user' || v === 'privacy' || v === 'clone';

/** /protocol?type=user|privacy|clone: the operator's agreement text (sanitized HTML). */
export default function ProtocolPage({ query }: PanelProps) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const type: ProtocolType = isProtocolType(query.type) ? query.type : 'user';
  const [doc, setDoc] = useState<{ title: string; content: string } | null | 'error'>(null);

  useEffect(() => {
    setDoc(null);
    api.call(API.site.protocol, { type }, { silent: true }).then(setDoc, () => setDoc('error'));
  }, [api, type]);

  return (
    <div className="protocol-page">
      <Button variant="minimal" icon="arrow-left" text="返回" onClick={() => (history.length > 1 ? history.back() : navigation.navigate('/login'))} />
      <h1>{PROTOCOL_TITLES[type]}</h1>
      {doc === null ? (
        <Spinner size={28} />
      ) : doc === 'error' || !doc.content.trim() ? (
        <NonIdealState icon="document" title="暂无内容" description="运营方尚未发布该协议。" />
      ) : (
        <SafeHtml html={doc.content} className="protocol-content" />
      )}
    </div>
  );
}
