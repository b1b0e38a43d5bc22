import 'reflect-metadata';
import { act, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Container } from 'inversify';
import { Observable, Subject } from 'rxjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../contract';
import { ApiCallError } from './api-client';
import { UploadRefusedError } from './upload-service';
import { ContainerProvider } from './react';
import { TOKENS, type UploadProgress, type UploadService } from './tokens';
import { formatSize } from './format';
import { UploadBox, type UploadBoxProps } from './upload-box';
import { acceptLabel, acceptsFile, uploadPercent, usableDuration } from './upload-files';
import { reactHost, expectAnswers } from '../../tests/support/react-host';
import { recordingNotifier } from '../../tests/support/notes';

describe('upload box helpers', () => {
  it('matches files against an accept list', () => {
    expectAnswers(acceptsFile, [
      ['clip.MP4', 'video/mp4', '.mp4,.mov', true],
      ['clip.mov', '', '.mp4,.mov', true],
      ['clip.avi', 'video/x-msvideo', '.mp4,.mov', false],
      ['a.wav', 'audio/wav', 'audio/*', true],
      ['a.png', 'image/png', 'audio/*', false],
      ['a.png', 'image/png', 'image/png, image/jpeg', true],
      ['anything.bin', '', undefined, true],
      ['anything.bin', '', ' ', true],
    ]);
  });

  it('names the accepted formats', () => {
    expectAnswers(acceptLabel, [
      ['.mp4,.mov,video/mp4', 'MP4/MOV'],
      ['.jpg,.JPG,.png', 'JPG/PNG'],
      ['audio/*', ''],
    ]);
  });

  it('computes whole percents and sizes', () => {
    expectAnswers(uploadPercent, [
      [0, 100, 0],
      [33, 100, 33],
      [999, 1000, 99],
      [150, 100, 100],
      [5, 0, 0],
    ]);
    expectAnswers(formatSize, [
      [0, '0 B'],
      [512, '512 B'],
      [1536, '1.5 KB'],
      [500 * 1024 * 1024, '500 MB'],
      [2 * 1024 * 1024 * 1024, '2 GB'],
    ]);
  });

  it('passes on only durations the registration accepts', () => {
    expect(usableDuration(undefined, 1800)).toBeUndefined();
    expect(usableDuration(Number.NaN, 1800)).toBeUndefined();
    expect(usableDuration(Number.POSITIVE_INFINITY, 1800)).toBeUndefined();
    expect(usableDuration(0, 1800)).toBeUndefined();
    expect(usableDuration(1801, 1800)).toBeUndefined();
    expect(usableDuration(5.0449, 1800)).toBe(5.04);
  });
});

describe('UploadBox', () => {
  const view = reactHost();
  const { notes, notifier } = recordingNotifier();
  let uploads: { file: File; subject: Subject<UploadProgress>; unsubscribed: boolean; extra: unknown }[];

  const service: UploadService = {
    upload: (file, _type, extra) =>
      new Observable<UploadProgress>((subscriber) => {
        const entry = { file, subject: new Subject<UploadProgress>(), unsubscribed: false, extra };
        uploads.push(entry);
        const sub = entry.subject.subscribe(subscriber);
        return () => {
          entry.unsubscribed = true;
          sub.unsubscribe();
        };
      }),
  };

  beforeEach(() => {
    uploads = [];
  });

  function render(props: Partial<UploadBoxProps> = {}) {
    const container = new Container();
    container.bind(TOKENS.Notifier).toConstantValue(notifier);
    container.bind(TOKENS.UploadService).toConstantValue(service);
    const onUploaded = vi.fn();
    act(() =>
      view.root.render(
        <ContainerProvider container={container}>
          <UploadBox type="image" accept=".png,.jpg" onUploaded={onUploaded} {...props} />
        </ContainerProvider>,
      ),
    );
    return { onUploaded };
  }

  async function choose(...files: File[]) {
    const input = view.host.querySelector<HTMLInputElement>('[data-testid=upload-input]')!;
    Object.defineProperty(input, 'files', { value: files, configurable: true });
    await act(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await Promise.resolve();
    });
  }

  const png = (name = 'a.png', size = 2048) => new File([new Uint8Array(size)], name, { type: 'image/png' });
  const items = () => [...view.host.querySelectorAll('[data-testid=upload-item]')].map((el) => el.getAttribute('data-phase'));
  const percent = () => view.host.querySelector('[data-testid=upload-percent]')?.textContent;

  it('uploads with progress, then reports the registered file', async () => {
    const { onUploaded } = render();
    await choose(png());
    expect(uploads).toHaveLength(1);
    act(() => uploads[0]!.subject.next({ loaded: 512, total: 2048 }));
    expect(percent()).toBe('上传中 25%');
    act(() => uploads[0]!.subject.next({ loaded: 2048, total: 2048 }));
    expect(percent()).toBe('校验中…');
    act(() => {
      uploads[0]!.subject.next({ loaded: 2048, total: 2048, done: { file_id: 7, url: '/storage/1/x.png' } });
      uploads[0]!.subject.complete();
    });
    expect(onUploaded).toHaveBeenCalledWith(expect.objectContaining({ file_id: 7, url: '/storage/1/x.png' }));
    expect(onUploaded.mock.calls[0]![0].file.name).toBe('a.png');
    expect(notes).toEqual([{ kind: 'success', message: MSG.uploadSucceeded }]);
    expect(view.host.querySelector('[data-testid=upload-progress]')).toBeNull();
    expect(items()).toEqual(['done']);
  });

  it('refuses a file the check or the accept list refuses, and sends nothing', async () => {
    render({ check: (f) => (f.size > 1000 ? MSG.avatarVideoInvalid : null) });
    await choose(png('big.png', 4096));
    await choose(new File(['x'], 'a.gif', { type: 'image/gif' }));
    expect(uploads).toHaveLength(0);
    expect(notes).toEqual([
      { kind: 'warn', message: MSG.avatarVideoInvalid },
      { kind: 'warn', message: MSG.uploadFormatInvalid('PNG/JPG') },
    ]);
    expect(items()).toEqual([]);
  });

  it('cancels by unsubscribing', async () => {
    const { onUploaded } = render();
    await choose(png());
    act(() => uploads[0]!.subject.next({ loaded: 100, total: 2048 }));
    act(() => (view.host.querySelector('[data-testid=upload-cancel]') as HTMLButtonElement).click());
    expect(uploads[0]!.unsubscribed).toBe(true);
    expect(items()).toEqual([]);
    expect(onUploaded).not.toHaveBeenCalled();
    expect(notes).toEqual([{ kind: 'info', message: MSG.uploadCancelled }]);
  });

  it('closes the overlay and clears the list on failure; the server message is not repeated', async () => {
    render();
    await choose(png());
    act(() => uploads[0]!.subject.error(new ApiCallError(MSG.avatarVideoInvalid, 1)));
    expect(items()).toEqual([]);
    expect(view.host.querySelector('[data-testid=upload-progress]')).toBeNull();
    expect(notes).toEqual([]);
    await choose(png());
    act(() => uploads[1]!.subject.error(new Error('upload status 500')));
    expect(items()).toEqual([]);
    expect(notes).toEqual([{ kind: 'error', message: MSG.uploadFailed }]);
    await choose(png());
    act(() => uploads[2]!.subject.error(new UploadRefusedError(MSG.bucketTooLarge)));
    expect(notes.at(-1)).toEqual({ kind: 'error', message: MSG.bucketTooLarge });
  });

  it('holds up to maxFiles, one upload at a time', async () => {
    const { onUploaded } = render({ maxFiles: 2 });
    await choose(png('a.png'), png('b.png'), png('c.png'));
    expect(notes).toEqual([{ kind: 'warn', message: MSG.uploadTooMany(2) }]);
    await choose(png('a.png'), png('b.png'));
    expect(uploads).toHaveLength(1);
    expect(items()).toEqual(['waiting']);
    expect(view.host.querySelector('[data-testid=upload-progress]')?.getAttribute('data-phase')).toBe('uploading');
    await act(async () => {
      uploads[0]!.subject.next({ loaded: 1, total: 1, done: { file_id: 1, url: 'u1' } });
      uploads[0]!.subject.complete();
      await Promise.resolve();
    });
    expect(uploads).toHaveLength(2);
    await act(async () => {
      uploads[1]!.subject.next({ loaded: 1, total: 1, done: { file_id: 2, url: 'u2' } });
      uploads[1]!.subject.complete();
      await Promise.resolve();
    });
    expect(onUploaded.mock.calls.map((c) => c[0].file_id)).toEqual([1, 2]);
    expect(items()).toEqual(['done', 'done']);
  });

  it('cancels the upload in flight when it goes away', async () => {
    render();
    await choose(png());
    act(() => view.root.render(<div />));
    expect(uploads[0]!.unsubscribed).toBe(true);
  });
});

describe('UploadBox busy reports', () => {
  it('reports not busy when it goes away in the render that finished the upload', async () => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    const root = createRoot(host);
    const subject = new Subject<UploadProgress>();
    const container = new Container();
    container.bind(TOKENS.Notifier).toConstantValue({ success() {}, info() {}, warn() {}, error() {} });
    container.bind(TOKENS.UploadService).toConstantValue({ upload: () => subject.asObservable() });
    const busy: boolean[] = [];
    function Owner() {
      const [done, setDone] = useState(false);
      return (
        <ContainerProvider container={container}>
          {done ? <p>preview</p> : <UploadBox type="image" onUploaded={() => setDone(true)} onBusyChange={(b) => busy.push(b)} />}
        </ContainerProvider>
      );
    }
    act(() => root.render(<Owner />));
    const input = host.querySelector<HTMLInputElement>('[data-testid=upload-input]')!;
    Object.defineProperty(input, 'files', { value: [new File(['x'], 'a.png', { type: 'image/png' })], configurable: true });
    await act(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await Promise.resolve();
    });
    expect(busy).toEqual([true]);
    act(() => {
      subject.next({ loaded: 1, total: 1, done: { file_id: 1, url: 'u' } });
      subject.complete();
    });
    expect(host.textContent).toContain('preview');
    expect(busy).toEqual([true, false]);
    act(() => root.unmount());
    host.remove();
  });
});
