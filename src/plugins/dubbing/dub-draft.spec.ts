import { describe, expect, it } from 'vitest';
import { API, LIMITS, MSG, type Voice } from '../../contract';
import {
  addLine, addRole, buildRequest, dubDraftRules, dubPrice, dubProblem, emptyDubDraft, parseDialogue, pasteDialogue, previewKey, removeRole, setLinePause,
  setRoleEmotion, setRoleSlider, setRoleVoice, spokenLines, splitText, type DubDraft,
} from './dub-draft';

const voice = (id: number, api = 'local'): Voice =>
  ({ id, name: `声音${id}`, api, version_name: '1.0', voice_channel_name: api === 'mm' ? 'MiniMax' : '离线', rate: 1, volume: 1, pitch: 1 }) as Voice;

function pasted(draft: DubDraft, text: string, replace = true): DubDraft {
  const result = pasteDialogue(draft, text, replace);
  if ('message' in result) throw new Error(result.message);
  return result.draft;
}

describe('pasting a dialogue', () => {
  it('reads `角色名：台词` lines with either colon; a line without a name keeps no name; blank lines go', () => {
    expect(parseDialogue('甲：你好\n\n 乙 : 你也好 \n接着说')).toEqual([
      { role: '甲', text: '你好' },
      { role: '乙', text: '你也好' },
      { role: null, text: '接着说' },
    ]);
  });

  it('assigns roles by name, renaming the unused default roles first, and switches to the dialogue', () => {
    const draft = pasted(emptyDubDraft(), '主持人：欢迎。\n嘉宾：谢谢。\n主持人：开始吧。\n还有一句');
    expect(draft.mode).toBe('dialogue');
    expect(draft.roles.map((r) => r.name)).toEqual(['主持人', '嘉宾']);
    const names = new Map(draft.roles.map((r) => [r.id, r.name]));
    expect(draft.lines.map((l) => [names.get(l.roleId), l.text])).toEqual([['主持人', '欢迎。'], ['嘉宾', '谢谢。'], ['主持人', '开始吧。'], ['主持人', '还有一句']]);
  });

  it('keeps the roles the lines already use and appends unless replacing', () => {
    const first = pasted(emptyDubDraft(), '甲：一\n乙：二');
    const more = pasted(first, '丙：三', false);
    expect(more.roles.map((r) => r.name)).toEqual(['甲', '乙', '丙']);
    expect(more.lines.map((l) => l.text)).toEqual(['一', '二', '三']);
  });

  it('refuses nothing to read, a sixth role and a hundred and first line', () => {
    expect(pasteDialogue(emptyDubDraft(), '  \n ', true)).toEqual({ message: MSG.dubPasteEmpty });
    expect(pasteDialogue(emptyDubDraft(), ['A', 'B', 'C', 'D', 'E', 'F'].map((n) => `${n}：好`).join('\n'), true)).toEqual({ message: MSG.dubTooManyRoles(5) });
    expect(pasteDialogue(emptyDubDraft(), Array.from({ length: 101 }, () => '甲：好').join('\n'), true)).toEqual({ message: MSG.dubTooManyLines(100) });
  });
});

describe('single mode', () => {
  it('speaks a line per sentence, keeping closing quotes and pauses with their sentence', () => {
    expect(splitText('第一句。第二句！<#1#>“第三句？”\n\n没有句号的段落\n(laughs)')).toEqual(['第一句。', '第二句！<#1#>', '“第三句？”', '没有句号的段落']);
  });

  it('joins sentences so the lines never pass the limit', () => {
    const lines = splitText(Array.from({ length: 250 }, (_, i) => `第${i}句。`).join(''), 100);
    expect(lines.length).toBeLessThanOrEqual(100);
    expect(lines.join('')).toBe(Array.from({ length: 250 }, (_, i) => `第${i}句。`).join(''));
  });
});

describe('checks, price and the request', () => {
  const dialogue = () => {
    let d = pasted(emptyDubDraft(), '甲：你好<#0.5#>。\n乙：很高兴见到你。');
    d = setRoleVoice(d, d.roles[0]!.id, voice(3));
    return d;
  };

  it('stops at the first problem in the server\'s order, naming the line or role', () => {
    expect(dubProblem(emptyDubDraft())).toEqual({ message: MSG.scriptRequired, lineId: null });
    const d = dialogue();
    expect(dubProblem(d)).toEqual({ message: MSG.dubRoleNeedsVoice('乙'), lineId: d.lines[1]!.id });
    const empty = { ...d, lines: [...d.lines, { ...d.lines[0]!, id: 'x', text: '<#1#>' }] };
    expect(dubProblem(setRoleVoice(empty, d.roles[1]!.id, voice(4)))).toEqual({ message: MSG.dubLineEmpty(3), lineId: 'x' });
    expect(dubProblem(setRoleVoice(d, d.roles[1]!.id, voice(4)))).toBeNull();
    const long = { ...emptyDubDraft(), text: '字'.repeat(LIMITS.dubbing.maxChars + 1) };
    expect(dubProblem(setRoleVoice(long, long.roles[0]!.id, voice(3)))?.message).toBe(MSG.scriptTooLong(LIMITS.dubbing.maxChars));
  });

  it('prices each line at its voice channel\'s price per 100 characters', () => {
    const base = dialogue();
    const d = setRoleVoice(base, base.roles[1]!.id, voice(4, 'mm'));
    // 乙 says 7 characters on MiniMax at 50 per 100: 3.5, rounded up to 4; 甲's offline line is free.
    expect(dubPrice(d, new Map([['mm', 50], ['local', 0]]))).toBe(4);
    expect(dubPrice(d, new Map())).toBe(0);
  });

  it('sends each line with its role\'s voice, settings, name, pause and (MiniMax only) emotion; the request parses', () => {
    let d = dialogue();
    d = setRoleVoice(d, d.roles[1]!.id, voice(4, 'mm'));
    d = setRoleEmotion(setRoleEmotion(d, d.roles[1]!.id, 'happy'), d.roles[0]!.id, 'sad');
    d = setLinePause(setRoleSlider(d, d.roles[0]!.id, 'rate', 1.23), d.lines[0]!.id, 0.5);
    const request = buildRequest({ ...d, gap: 0.4 });
    expect(JSON.parse(request.lines)).toEqual([
      { voice_id: 3, text: '你好<#0.5#>。', rate: 1.2, volume: 1, pitch: 1, pause_after: 0.5, role: '甲' },
      { voice_id: 4, text: '很高兴见到你。', rate: 1, volume: 1, pitch: 1, emotion: 'happy', role: '乙' },
    ]);
    expect(request).toMatchObject({ name: LIMITS.defaultWorkName, gap: 0.4 });
    expect(API.dubbing.create.request.safeParse(request).success).toBe(true);
  });

  it('keys a preview on the words and the role\'s voice and settings', () => {
    const d = setRoleVoice(dialogue(), dialogue().roles[1]!.id, voice(4));
    const [a] = spokenLines(d);
    expect(previewKey(spokenLines(setLinePause(d, d.lines[0]!.id, 1))[0]!)).toBe(previewKey(a!));
    expect(previewKey(spokenLines(setRoleSlider(d, d.roles[0]!.id, 'pitch', 1.5))[0]!)).not.toBe(previewKey(a!));
  });
});

describe('editing', () => {
  it('alternates the roles of new lines in a two-person exchange', () => {
    const d = pasted(emptyDubDraft(), '甲：一\n乙：二');
    const { draft } = addLine(d);
    expect(draft.lines.map((l) => draft.roles.find((r) => r.id === l.roleId)!.name)).toEqual(['甲', '乙', '甲']);
  });

  it('adds up to five roles, and a removed role\'s lines go to the first one', () => {
    let d = emptyDubDraft();
    for (let i = 0; i < 5; i++) d = addRole(d);
    expect(d.roles.map((r) => r.name)).toEqual(['甲', '乙', '丙', '丁', '戊']);
    const second = d.roles[1]!.id;
    const after = removeRole(d, second);
    expect(after.roles).toHaveLength(4);
    expect(after.lines.every((l) => l.roleId !== second)).toBe(true);
  });

  it('keeps the draft in storage and reads it back', () => {
    const d = setRoleVoice(pasted(emptyDubDraft(), '甲：一\n乙：二'), emptyDubDraft().roles[0]!.id, voice(3));
    const back = dubDraftRules.revive(JSON.parse(JSON.stringify(dubDraftRules.keep(d))))!;
    expect(back.roles.map((r) => r.name)).toEqual(['甲', '乙']);
    expect(back.lines.map((l) => [back.roles.find((r) => r.id === l.roleId)!.name, l.text])).toEqual([['甲', '一'], ['乙', '二']]);
    expect(dubDraftRules.revive({ nonsense: true })).toBeNull();
    expect(dubDraftRules.isEmpty(emptyDubDraft())).toBe(true);
  });
});
