/** The pure half of the SSRF guard: schemes, address literals in every spelling, share texts and direct media links. */
import { describe, expect, it } from 'vitest';
import { addressAllowed, findLink, isBlockedAddress, isDirectMediaLink, linkRefusal, parseIPv6 } from './links';

describe('findLink', () => {
  it('finds the link in a pasted share text and drops what follows it', () => {
    expect(findLink('7.43 复制打开抖音，看看【小明的作品】今天天气真好 # 日常 https://v.douyin.com/iRNBho6u/ PbT:/ 04/12 Lwm:/')).toBe('https://v.douyin.com/iRNBho6u/');
    expect(findLink('看这个视频https://www.kuaishou.com/f/X8abc1，快来')).toBe('https://www.kuaishou.com/f/X8abc1');
    expect(findLink('see http://media.example.com/a/b.mp4?x=1.')).toBe('http://media.example.com/a/b.mp4?x=1');
    expect(findLink('没有链接的一段文字')).toBeNull();
    expect(findLink('file:///etc/passwd')).toBeNull();
  });

  it('tells a media file from a platform page', () => {
    for (const link of ['https://cdn.example.com/v/clip.MP4?sign=1', 'https://cdn.example.com/a.m4a']) expect(isDirectMediaLink(link), link).toBe(true);
    for (const link of ['https://v.douyin.com/iRNBho6u/', 'not a url']) expect(isDirectMediaLink(link), link).toBe(false);
  });
});

describe('the SSRF guard before any fetch', () => {
  it('refuses other schemes, credentials and internal address literals', () => {
    for (const link of ['file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO', 'ftp://example.com/a.mp4', 'data:video/mp4;base64,AAAA', 'javascript:alert(1)']) {
      expect(linkRefusal(link), link).toBe('scheme');
    }
    for (const link of [
      'http://127.0.0.1/a.mp4', 'http://127.1.2.3:8080/', 'http://10.0.0.8/a.mp4', 'http://172.20.1.1/', 'http://192.168.1.20:8000/',
      'http://169.254.169.254/latest/meta-data/', 'http://[::1]/a.mp4', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:a9fe:a9fe]/',
      'http://[fd00::1]/', 'http://[fe80::1]/', 'http://0.0.0.0/', 'http://100.64.0.1/', 'http://[64:ff9b::a00:1]/', 'http://[2002:7f00:1::]/',
      // The URL parser reads these as 127.0.0.1 and 169.254.169.254.
      'http://2130706433/', 'http://0x7f.0.0.1/', 'http://0251.0376.0251.0376/',
    ]) {
      expect(linkRefusal(link), link).toBe('address');
    }
    expect(linkRefusal('http://user:pass@example.com/a.mp4')).toBe('invalid');
    expect(linkRefusal('http://')).toBe('invalid');
    expect(linkRefusal('https://v.douyin.com/iRNBho6u/')).toBeNull();
    expect(linkRefusal('http://93.184.216.34/a.mp4')).toBeNull();
    expect(linkRefusal('http://[2606:4700::1111]/a.mp4')).toBeNull();
  });

  it('lets loopback through only on the ports a test names, never private or link-local addresses', () => {
    const allow = (port: number) => port === 4567;
    expect(linkRefusal('http://127.0.0.1:4567/a.mp4', allow)).toBeNull();
    expect(linkRefusal('http://127.0.0.1:4568/a.mp4', allow)).toBe('address');
    expect(linkRefusal('http://[::1]:4567/a.mp4', allow)).toBeNull();
    expect(addressAllowed('10.0.0.1', 4567, allow)).toBe(false);
    expect(addressAllowed('169.254.169.254', 4567, allow)).toBe(false);
    expect(addressAllowed('8.8.8.8', 80)).toBe(true);
  });

  it('classifies addresses, treating what it cannot read as blocked', () => {
    for (const address of ['198.18.0.1', '224.0.0.1', '255.255.255.255', '::', 'ff02::1', 'not-an-ip']) expect(isBlockedAddress(address), address).toBe(true);
    expect(isBlockedAddress('172.32.0.1')).toBe(false);
    expect(parseIPv6('1:2:3:4:5:6:7:8:9')).toBeNull();
    expect(parseIPv6('2001:db8::1')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
  });
});
