import { describe, expect, it } from 'vitest';
import { councilTextMime, encodeCouncilText } from './council-encoding';

// Issue 36, item 24: the council results file in the organisation's chosen encoding.
describe('council file encoding', () => {
  it('UTF-8 is the text as UTF-8, nothing replaced', () => {
    const text = 'Café Ōtāhuhu 🌊\n';
    expect(encodeCouncilText(text, 'UTF-8')).toEqual({ bytes: new TextEncoder().encode(text), replaced: 0 });
    expect(councilTextMime('UTF-8')).toBe('text/plain;charset=utf-8');
  });

  it('Windows-1252 writes its characters as single bytes, including the 0x80-0x9F range', () => {
    const { bytes, replaced } = encodeCouncilText('Café – ‘O’Brien’ €5|', 'Windows-1252');
    expect([...bytes]).toEqual([0x43, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x91, 0x4f, 0x92, 0x42, 0x72, 0x69, 0x65, 0x6e, 0x92, 0x20, 0x80, 0x35, 0x7c]);
    expect(replaced).toBe(0);
    expect(new TextDecoder('windows-1252').decode(bytes)).toBe('Café – ‘O’Brien’ €5|');
    expect(councilTextMime('Windows-1252')).toBe('text/plain;charset=windows-1252');
  });

  it("Windows-1252: a character it cannot hold is one '?' (a macron, an emoji of two UTF-16 units), and counted", () => {
    const { bytes, replaced } = encodeCouncilText('Ōtāhuhu 🌊|', 'Windows-1252');
    expect(new TextDecoder('windows-1252').decode(bytes)).toBe('?t?huhu ?|');
    expect(replaced).toBe(3);
  });

  it('Windows-1252: a decomposed é (e and a combining accent) is the one byte 0xE9', () => {
    const { bytes, replaced } = encodeCouncilText('Cafe\u0301', 'Windows-1252');
    expect([...bytes]).toEqual([0x43, 0x61, 0x66, 0xe9]);
    expect(replaced).toBe(0);
  });
});
