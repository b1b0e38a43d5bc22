/**
 * Opens and closes a mouth in one yuv420p frame by warping the lower face, driven by the 68 landmarks.
 *
 * Geometry works in mouth units: origin between the lips, s across the mouth (±1 at the corners), t down the
 * face, both in half mouth widths. The lower lip and jaw move down and the upper lip a little up; the
 * displacement is lens-shaped at the lips (the corners stay joined) and broad at the chin, and falls smoothly to
 * zero before the nose, past the cheeks and below the chin, so the warp has no edge to see. Between the parted
 * lips a mouth interior is drawn (mouthInside): soft-edged, shaded dark red-brown, the tongue when wide open. Teeth
 * the source shows between its lips are its own, split on the lip line so each row moves with its jaw. Rounding
 * (o, u, ü) draws the corners in and makes the opening narrower and rounder. Only pixels of that region are read
 * or written.
 */

export interface MouthPose {
  /** 0..1 opening. */
  open: number;
  /** 0..1 rounding (o/u), which narrows the mouth. */
  round: number;
  /** How far the source frame's own lips are already apart beyond closed, in half mouth widths (a filmed talker). */
  already?: number;
}

/** The gap between the lips at open = 1, in half mouth widths. */
const MAX_GAP = 0.6;
/** How far the opening reaches toward the corners (the lips stay joined beyond it), in half mouth widths. */
const LENS_REACH = 0.82;
const LOWER_SHARE = 0.72;

/** The parted lips' outline: 1 in the middle, closing to 0 toward the corners, rounded. */
const LENS_STEPS = 1024;
const LENS = Float32Array.from({ length: LENS_STEPS + 1 }, (_, i) => Math.pow(1 - (i / LENS_STEPS) ** 2, 0.6));
/** A fully rounded mouth's opening reaches this share of LENS_REACH. */
const ROUND_REACH = 0.62;
function lensAt(as: number, reach: number): number {
  const x = as / reach;
  return x < 1 ? LENS[(x * LENS_STEPS) | 0]! : 0;
}

/** 0 at 0, rising evenly to 1 at `width`: a blend whose steepest step is as gentle as its width allows. */
const ramp = (width: number, x: number) => Math.min(1, Math.max(0, x / width));
const smoothstep = (e0: number, e1: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

interface Geometry {
  cx: number; cy: number;
  ux: number; uy: number;
  /** half mouth width, px */
  a: number;
  /** the lip line's offset in t at sample positions s (inner lip landmarks). */
  curveS: number[]; curveT: number[];
  chinT: number; noseT: number;
}

/** The inner lips' gap in half mouth widths. */
export function lipGap(p: ArrayLike<number>, at: number): number {
  const x = (i: number) => p[at + 2 * i]!;
  const y = (i: number) => p[at + 2 * i + 1]!;
  return (2 * Math.hypot(x(66) - x(62), y(66) - y(62))) / (Math.hypot(x(54) - x(48), y(54) - y(48)) || 1);
}

function geometry(p: ArrayLike<number>, at: number): Geometry {
  const x = (i: number) => p[at + 2 * i]!;
  const y = (i: number) => p[at + 2 * i + 1]!;
  let ux = x(54) - x(48), uy = y(54) - y(48);
  const width = Math.hypot(ux, uy) || 1;
  ux /= width; uy /= width;
  const a = width / 2;
  const cx = (x(60) + x(64) + x(62) + x(66)) / 4;
  const cy = (y(60) + y(64) + y(62) + y(66)) / 4;
  const toS = (px: number, py: number) => ((px - cx) * ux + (py - cy) * uy) / a;
  const toT = (px: number, py: number) => (-(px - cx) * uy + (py - cy) * ux) / a;
  // The lip line: inner corners, and the middle of upper and lower inner lip at three places.
  const pairs: [number, number][] = [[60, 60], [61, 67], [62, 66], [63, 65], [64, 64]];
  const curveS: number[] = [], curveT: number[] = [];
  for (const [top, bottom] of pairs) {
    const mx = (x(top) + x(bottom)) / 2, my = (y(top) + y(bottom)) / 2;
    curveS.push(toS(mx, my));
    curveT.push(toT(mx, my));
  }
  return { cx, cy, ux, uy, a, curveS, curveT, chinT: toT(x(8), y(8)), noseT: toT(x(33), y(33)) };
}

function lipLine(g: Geometry, s: number): number {
  const { curveS: xs, curveT: ys } = g;
  if (s <= xs[0]!) return ys[0]!;
  for (let i = 1; i < xs.length; i++) if (s <= xs[i]!) return ys[i - 1]! + ((ys[i]! - ys[i - 1]!) * (s - xs[i - 1]!)) / (xs[i]! - xs[i - 1]! || 1);
  return ys[xs.length - 1]!;
}

/** Scratch copies of the region's source pixels, reused across frames. */
export class MouthWarper {
  private copy = new Uint8Array(0);

  constructor(readonly width: number, readonly height: number) {}

  /**
   * Warps `frame` (yuv420p, width × height) in place. `points`/`at`: the frame's 68 landmarks (x, y pairs
   * from index `at`). `strength` fades the effect where the face is less sure.
   */
  apply(frame: Uint8Array, points: ArrayLike<number>, at: number, pose: MouthPose, strength = 1): void {
    // A source whose lips are already apart is opened only by what is missing (never closed: the warp cannot shut a mouth).
    const gap = Math.max(0, pose.open * MAX_GAP - (pose.already ?? 0)) * strength;
    if (gap < 0.01) return;
    const g = geometry(points, at);
    if (!(g.a > 4) || !(g.chinT > 0.5) || !(g.noseT < -0.2)) return;
    const { width: W, height: H } = this;
    const lower = gap * LOWER_SHARE, upper = gap - lower;
    // Rounded lips: the corners come in and the opening narrows toward an O.
    const round = Math.min(1, Math.max(0, pose.round));
    const narrow = (0.06 + 0.24 * round) * pose.open * strength;
    const reach = LENS_REACH * (1 - (1 - ROUND_REACH) * round * strength);
    const chinFade = Math.max(1.2, g.chinT * 0.7);
    const noseReach = Math.max(0.3, -g.noseT * 0.8);

    // The region: everything the displacement touches, as a box of whole chroma blocks.
    const sMax = 2.8, tMin = g.noseT * 0.9, tMax = g.chinT + chinFade + lower;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const [s, t] of [[-sMax, tMin], [sMax, tMin], [-sMax, tMax], [sMax, tMax]] as const) {
      const px = g.cx + g.a * (s * g.ux - t * g.uy), py = g.cy + g.a * (s * g.uy + t * g.ux);
      x0 = Math.min(x0, px); x1 = Math.max(x1, px); y0 = Math.min(y0, py); y1 = Math.max(y1, py);
    }
    x0 = Math.max(0, Math.floor(x0 / 2) * 2); y0 = Math.max(0, Math.floor(y0 / 2) * 2);
    x1 = Math.min(W, Math.ceil(x1 / 2) * 2); y1 = Math.min(H, Math.ceil(y1 / 2) * 2);
    if (x1 - x0 < 4 || y1 - y0 < 4) return;
    const rw = x1 - x0, rh = y1 - y0, cw = rw / 2, ch = rh / 2;
    const lumaSize = rw * rh, chromaSize = cw * ch;
    if (this.copy.length < lumaSize + 2 * chromaSize) this.copy = new Uint8Array(lumaSize + 2 * chromaSize);
    const src = this.copy;
    const cW = W / 2, uOff = W * H, vOff = uOff + cW * (H / 2);
    for (let r = 0; r < rh; r++) src.set(frame.subarray((y0 + r) * W + x0, (y0 + r) * W + x1), r * rw);
    for (let r = 0; r < ch; r++) {
      const from = (y0 / 2 + r) * cW + x0 / 2;
      src.set(frame.subarray(uOff + from, uOff + from + cw), lumaSize + r * cw);
      src.set(frame.subarray(vOff + from, vOff + from + cw), lumaSize + chromaSize + r * cw);
    }

    // Where the output pixel at mouth coordinates (s, t) comes from; NaN t for the mouth's inside.
    const out = { s: 0, t: 0, depth: 0, across: 0, height: 0 };
    const map = (s: number, t: number) => {
      const line = lipLine(g, s);
      const tl = t - line;
      const as = Math.abs(s);
      const lens = lensAt(as, reach);
      const jaw = 1 - smoothstep(1.1, 2.7, as);
      let dt: number;
      if (tl >= 0) {
        const shape = lens + (jaw - lens) * smoothstep(0, 0.9, tl);
        dt = lower * shape * (1 - smoothstep(g.chinT - line, g.chinT - line + chinFade, tl));
      } else {
        dt = -upper * lens * (1 - smoothstep(0, noseReach, -tl));
      }
      const st = tl - dt;
      if ((tl >= 0 && st < 0) || (tl < 0 && st >= 0)) {
        // Inside the parted lips: how far down (0 top lip, 1 bottom lip) and how far across.
        const top = -upper * lens, bottom = lower * lens;
        out.height = (bottom - top) * a;
        out.depth = (tl - top) / Math.max(1e-3, bottom - top);
        out.across = as;
        out.t = NaN;
        out.s = s;
        return;
      }
      const ds = -narrow * s * (1 - smoothstep(0.8, 2.0, as)) * (1 - smoothstep(0.3, 1.4, Math.abs(tl)));
      out.s = s - ds;
      out.t = st + lipLine(g, out.s);
    };

    const { cx, cy, ux, uy, a } = g;
    const sample = (plane: number, pw: number, ph: number, px: number, py: number) => {
      const fx = Math.min(pw - 1.001, Math.max(0, px)), fy = Math.min(ph - 1.001, Math.max(0, py));
      const ix = fx | 0, iy = fy | 0, wx = fx - ix, wy = fy - iy;
      const i = plane + iy * pw + ix;
      return (src[i]! * (1 - wx) + src[i + 1]! * wx) * (1 - wy) + (src[i + pw]! * (1 - wx) + src[i + pw + 1]! * wx) * wy;
    };
    const gapPx = gap * a;
    // A gap of a pixel or two is the lips parting: drawn as the lips' own edge, so a mouth at rest shows no line.
    const shown = smoothstep(1, 3.5, gapPx);
    // A source with teeth between its lips keeps them (they move with their jaws); a closed one gets a hint of upper teeth.
    const drawTeeth = 1 - teethShown(g, (s, t) => sample(0, rw, rh, cx + a * (s * ux - t * uy) - x0, cy + a * (s * uy + t * ux) - y0));
    const tooth = 0.16 * a;
    // Past the crease where closed lips meet: the colour of the lips' inner edges (or of the teeth, where they show).
    const lipInset = Math.max(1.5 / a, 0.1);
    const lipAt = (s: number, upperLip: boolean, plane: number, pw: number, ph: number, half: number) => {
      const line = lipLine(g, s) + (upperLip ? -lipInset : lipInset);
      const lx = (cx + a * (s * ux - line * uy) - x0 - half) / (half ? 2 : 1), ly = (cy + a * (s * uy + line * ux) - y0 - half) / (half ? 2 : 1);
      return sample(plane, pw, ph, lx, ly);
    };
    const inside: Inside = { y: 0, cb: 0, cr: 0, lip: 0, teeth: 0, toothY: 0 };

    // Luma.
    for (let r = 0; r < rh; r++) {
      const y = y0 + r;
      for (let c = 0; c < rw; c++) {
        const x = x0 + c;
        const dx = x - cx, dy = y - cy;
        const s = (dx * ux + dy * uy) / a, t = (-dx * uy + dy * ux) / a;
        if (Math.abs(s) > sMax || t < tMin || t > tMax) continue;
        map(s, t);
        let v: number;
        if (Number.isNaN(out.t)) {
          mouthInside(inside, out.depth, out.across / reach, out.height, gap, drawTeeth, tooth, shown);
          v = inside.y + (lipAt(s, out.depth < 0.5, 0, rw, rh, 0) - inside.y) * inside.lip;
          v += (inside.toothY - v) * inside.teeth;
        } else {
          const sx = cx + a * (out.s * ux - out.t * uy) - x0, sy = cy + a * (out.s * uy + out.t * ux) - y0;
          v = sample(0, rw, rh, sx, sy);
        }
        frame[y * W + x] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
    // Chroma, at each 2×2 block's centre.
    for (let r = 0; r < ch; r++) {
      const y = y0 + 2 * r + 0.5;
      for (let c = 0; c < cw; c++) {
        const x = x0 + 2 * c + 0.5;
        const dx = x - cx, dy = y - cy;
        const s = (dx * ux + dy * uy) / a, t = (-dx * uy + dy * ux) / a;
        if (Math.abs(s) > sMax || t < tMin || t > tMax) continue;
        map(s, t);
        const at = (y0 / 2 + r) * cW + x0 / 2 + c;
        if (Number.isNaN(out.t)) {
          mouthInside(inside, out.depth, out.across / reach, out.height, gap, drawTeeth, tooth, shown);
          const upperLip = out.depth < 0.5;
          const lipCb = lipAt(s, upperLip, lumaSize, cw, ch, 0.5), lipCr = lipAt(s, upperLip, lumaSize + chromaSize, cw, ch, 0.5);
          const cb = inside.cb + (lipCb - inside.cb) * inside.lip, cr = inside.cr + (lipCr - inside.cr) * inside.lip;
          // Teeth take a little of the lips' (and the light's) warmth, so they sit in the picture's colours.
          frame[uOff + at] = cb + (128 + (lipCb - 128) * 0.3 - cb) * inside.teeth;
          frame[vOff + at] = cr + (130 + (lipCr - 128) * 0.3 - cr) * inside.teeth;
        } else {
          const sx = (cx + a * (out.s * ux - out.t * uy) - x0 - 0.5) / 2, sy = (cy + a * (out.s * uy + out.t * ux) - y0 - 0.5) / 2;
          frame[uOff + at] = sample(lumaSize, cw, ch, sx, sy);
          frame[vOff + at] = sample(lumaSize + chromaSize, cw, ch, sx, sy);
        }
      }
    }
  }
}

/**
 * How surely the source shows teeth between its lips (0..1), from its pixels: along the middle of the lip line teeth
 * are much brighter than the lips above and below, where closed lips meet in a darker crease. (The landmarks' inner
 * lips cannot tell: they read a closed mouth a little open.)
 */
function teethShown(g: Geometry, luma: (s: number, t: number) => number): number {
  const bright: number[] = [];
  for (const s of [-0.3, -0.15, 0, 0.15, 0.3]) {
    const line = lipLine(g, s);
    const lips = Math.max(luma(s, line - 0.22), luma(s, line + 0.28));
    bright.push(Math.max(luma(s, line), luma(s, line - 0.05), luma(s, line + 0.05)) - lips);
  }
  bright.sort((p, q) => p - q);
  return smoothstep(8, 30, bright[2]!);
}

interface Inside { y: number; cb: number; cr: number; lip: number; teeth: number; toothY: number }

/**
 * The inside of the mouth at a place between the parted lips (depth 0 at the upper lip, 1 at the lower; across 0 in
 * the middle, 1 at the corners), as video-range Y, Cb, Cr, and `lip`: how much of the lip's own colour to blend in
 * (1 at the lips' inner edges, falling over a few pixels, so the opening has no hard edge). Dark red-brown, darkest
 * in the throat and toward the corners, warmer and lighter toward the lips; the tongue rises from below when the
 * mouth is wide open; upper teeth (when `teeth`) hang from the upper lip, a fixed length the lower lip covers as the
 * mouth closes.
 */
function mouthInside(o: Inside, depth: number, across: number, heightPx: number, gap: number, teeth: number, toothPx: number, shown: number): void {
  const fromUpper = depth * heightPx, fromLower = (1 - depth) * heightPx;
  const edge = Math.min(fromUpper, fromLower);
  const corner = smoothstep(0.35, 1, across);
  // The throat darkest in the middle; red-brown, lighter toward the lips; darker into the corners.
  const deep = Math.sin(Math.PI * depth) * (1 - corner) * smoothstep(0.1, 0.4, gap);
  const near = 1 - ramp(Math.max(3, 0.35 * heightPx), edge);
  let y = 46 - 14 * deep - 8 * corner + 22 * near, cb = 121 + 3 * deep, cr = 147 - 8 * deep + 6 * near;
  // The tongue: a soft mound low in the mouth, only when wide open.
  const tongue = smoothstep(0.55, 0.92, depth) * (1 - smoothstep(0.2, 0.75, across)) * smoothstep(0.3, 0.55, gap);
  y += (84 - y) * 0.55 * tongue; cb += (116 - cb) * 0.55 * tongue; cr += (160 - cr) * 0.55 * tongue;
  o.y = y; o.cb = cb; o.cr = cr;
  // Upper teeth, over the lips' blend: just under the upper lip, shaded toward the sides, gone under the lower lip.
  o.teeth = teeth * smoothstep(0.3, 1.5, fromUpper) * (1 - smoothstep(toothPx * 0.5, toothPx * 1.1, fromUpper)) * smoothstep(1.5, 4, fromLower) * (1 - smoothstep(0.2, 0.65, across)) * smoothstep(0.15, 0.35, gap);
  o.toothY = 150 - 45 * smoothstep(0, 0.6, across);
  // Lighter toward the lips: their colour over an even band (under half the opening, at most 8 px), all of it while barely open.
  const band = Math.min(8, Math.max(2.5, 0.45 * heightPx));
  o.lip = 1 - (1 - 0.8 * (1 - ramp(band, edge))) * shown;
}
