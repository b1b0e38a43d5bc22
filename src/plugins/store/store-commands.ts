import { inject, injectable } from 'inversify';
import { TOKENS, type Command, type CommandContribution, type Navigation } from '../../core';
import { STORE_SECTIONS } from './tools';


/** Jump to a section of the creation store (the shell's 前往：创作商店 opens the top). */
@injectable()
export class StoreCommands implements CommandContribution {
  constructor(@inject(TOKENS.Navigation) private readonly navigation: Navigation) {}

  commands(): Command[] {
    return STORE_SECTIONS.map((section) => ({
      id: `store.section.${section.id}`,
      title: `创作商店：${section.title}`,
      section: '创作商店',
      keywords: `store tools 工具 ${section.title} ${section.tools.map((t) => t.title).join(' ')}`,
      icon: section.icon,
      run: () => this.navigation.navigate('/store', { section: section.id }),
    }));
  }
}
