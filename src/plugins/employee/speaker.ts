/**
 * Speaks an answer sentence by sentence through one <audio> element: each sentence's mp3 is asked for as soon as the
 * sentence is complete (so later ones are synthesised while the first plays), and they play in order. While one
 * plays, `level$` follows its loudness (0..1, from a Web Audio analyser) for the avatar's mouth.
 */
import { BehaviorSubject } from 'rxjs';
import { API } from '../../contract';

export class Speaker {
  readonly level$ = new BehaviorSubject(0);
  readonly speaking$ = new BehaviorSubject(false);
  readonly audio: HTMLAudioElement;
  private queue: Promise<string | null>[] = [];
  private playing = false;
  private context: AudioContext | null = null;
  private analyser: AnalyserNode | null = null;
  private frame = 0;
  private urls: string[] = [];
  private generation = 0;

  constructor(private readonly token: () => string) {
    this.audio = new Audio();
    this.audio.dataset.testid = 'employee-audio';
    this.audio.style.display = 'none';
    document.body.appendChild(this.audio);
  }

  /** Asks for the sentence's speech at once; it plays after the ones before it. */
  say(mid: number, text: string): void {
    const query = new URLSearchParams({ token: this.token(), mid: String(mid), text });
    this.queue.push(
      fetch(`${API.bot.speech.path}?${query}`)
        .then(async (res) => ((res.headers.get('content-type') ?? '').startsWith('audio/') ? URL.createObjectURL(await res.blob()) : null))
        .catch(() => null),
    );
    if (!this.playing) void this.playNext(this.generation);
  }

  /** Stops speaking and drops what was waiting. */
  stop(): void {
    this.generation++;
    this.queue = [];
    this.audio.pause();
    this.playing = false;
    this.speaking$.next(false);
    this.level$.next(0);
  }

  dispose(): void {
    this.stop();
    cancelAnimationFrame(this.frame);
    for (const url of this.urls) URL.revokeObjectURL(url);
    void this.context?.close().catch(() => undefined);
    this.audio.remove();
  }

  private async playNext(generation: number): Promise<void> {
    this.playing = true;
    this.speaking$.next(true);
    while (this.queue.length && generation === this.generation) {
      const url = await this.queue.shift()!;
      if (!url || generation !== this.generation) continue;
      this.urls.push(url);
      this.audio.src = url;
      this.listen();
      const ended = new Promise<void>((resolve) => {
        this.audio.onended = () => resolve();
        this.audio.onerror = () => resolve();
      });
      try {
        await this.audio.play();
        await ended;
      } catch {
        // Autoplay refused or the clip broken: the next sentence still gets its turn.
      }
    }
    if (generation !== this.generation) return;
    this.playing = false;
    this.speaking$.next(false);
    this.level$.next(0);
  }

  /** Connects the element to an analyser once and follows its loudness every frame. */
  private listen(): void {
    if (!this.context && typeof AudioContext !== 'undefined') {
      this.context = new AudioContext();
      const source = this.context.createMediaElementSource(this.audio);
      this.analyser = this.context.createAnalyser();
      this.analyser.fftSize = 512;
      source.connect(this.analyser);
      this.analyser.connect(this.context.destination);
    }
    void this.context?.resume().catch(() => undefined);
    const analyser = this.analyser;
    if (!analyser) return;
    const samples = new Float32Array(analyser.fftSize);
    cancelAnimationFrame(this.frame);
    const tick = () => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const v of samples) sum += v * v;
      // RMS of speech sits around 0.02–0.2: map it onto 0..1 with a soft knee, eased toward the last value.
      const level = Math.min(1, Math.sqrt(sum / samples.length) * 6);
      this.level$.next(this.level$.value * 0.4 + level * 0.6);
      if (this.speaking$.value) this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
  }
}
