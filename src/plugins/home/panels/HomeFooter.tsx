import { Suspense } from 'react';
import type { SiteInfo } from '../../../contract';
import { SafeHtml } from '../../../core';

/** 京公网安备 11010502030143号 → the record number the police filing site looks up. */
export function policeRecordCode(gabeian: string): string | null {
  const digits = gabeian.match(/\d{6,}/);
  return digits ? digits[0] : null;
}

/** Filing numbers, copyright and the operator's own label (HTML, sanitized) (part 1 §2 Home). */
export function HomeFooter({ site }: { site: SiteInfo | null }) {
  if (!site) return null;
  const { icp, gabeian, copyright, diy_label: label } = site;
  if (!icp && !gabeian && !copyright && !label) return null;
  const record = gabeian ? policeRecordCode(gabeian) : null;
  return (
    <footer className="home-footer" data-testid="home-footer">
      {(copyright || icp || gabeian) && (
        <div className="home-footer-line">
          {copyright && <span>{copyright}</span>}
          {icp && (
            <a href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer noopener" data-testid="footer-icp">
              {icp}
            </a>
          )}
          {gabeian &&
            (record ? (
              <a href={`https://beian.mps.gov.cn/#/query/webSearch?code=${record}`} target="_blank" rel="noreferrer noopener" data-testid="footer-gabeian">
                {gabeian}
              </a>
            ) : (
              <span data-testid="footer-gabeian">{gabeian}</span>
            ))}
        </div>
      )}
      {label && (
        <Suspense fallback={null}>
          <SafeHtml html={label} className="home-footer-label" />
        </Suspense>
      )}
    </footer>
  );
}
