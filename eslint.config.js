// The dependency rule of ARCHITECTURE.md, enforced: plugins use core and contract (never the shell or
// another plugin), core never reaches up, the contract stays free of DOM/Node/React, the server never
// imports browser code.
import tseslint from 'typescript-eslint';

const files = ['**/*.ts', '**/*.tsx'];
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default [
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**'] },
  { files, languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } } },
  {
    files: ['src/contract/**/*.ts'],
    ignores: ['src/contract/**/*.spec.ts'],
    rules: restrict([
      { group: ['**/core', '**/core/**', '**/shell/**', '**/plugins/**', '**/server/**'], message: 'The contract imports nothing of the client or the server.' },
      { group: ['node:*', 'react', 'react-dom', 'fs', 'path'], message: 'The contract has no DOM, Node or React imports.' },
    ]),
  },
  {
    files: ['src/core/**/*.{ts,tsx}'],
    ignores: ['src/core/**/*.spec.ts'],
    rules: restrict([{ group: ['**/shell/**', '**/plugins/**', '**/server/**'], message: 'Core is below the shell and the plugins.' }]),
  },
  // A plugin file at depth d below src/plugins/<name>/ reaches src/ with d+2 `../`: only core and contract may be there,
  // and d+1 `../` would be another plugin.
  ...[0, 1, 2].flatMap((depth) => {
    const up = (n) => '\\.\\./'.repeat(n);
    const folder = `src/plugins/*/${'*/'.repeat(depth)}`;
    const rules = (alsoAllowed) =>
      restrict([
        { group: ['**/shell', '**/shell/**', '**/server/**'], message: 'Plugins use src/core and src/contract only.' },
        { regex: `^${up(depth + 1)}(?!\\.\\./)`, message: 'A plugin never imports another plugin; go through src/core.' },
        { regex: `^${up(depth + 2)}(?!core$|contract$${alsoAllowed})`, message: 'Plugins import src/core (through its index) and src/contract only.' },
      ]);
    return [
      { files: [`${folder}*.{ts,tsx}`], ignores: [`${folder}*.spec.{ts,tsx}`], rules: rules('') },
      // A plugin's specs may also use the shared test helpers (React host, recording notifier).
      { files: [`${folder}*.spec.{ts,tsx}`], rules: rules('|\\.\\./tests/support/') },
    ];
  }),
  {
    // React.lazy keeps a failed load forever (a blank tab until F5); lazyChunk retries it (src/core/lazy-chunk.tsx).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/core/lazy-chunk.tsx', 'src/**/*.spec.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "ImportDeclaration[source.value='react'] > ImportSpecifier[imported.name='lazy']", message: 'Load screens with lazyChunk from src/core: it recovers from a failed load.' },
        { selector: "MemberExpression[object.name='React'][property.name='lazy']", message: 'Load screens with lazyChunk from src/core: it recovers from a failed load.' },
      ],
    },
  },
  {
    files: ['src/shell/**/*.{ts,tsx}'],
    rules: restrict([{ group: ['**/plugins/**', '**/server/**'], message: 'The shell loads plugins through the manifest, never by import.' }]),
  },
  {
    files: ['server/**/*.ts'],
    rules: restrict([
      { group: ['**/src/core', '**/src/core/**', '**/src/shell/**', '**/src/plugins/**'], message: 'The server imports the contract, never browser code.' },
      // A feature is used through its index.ts (its module and what it exports for others), never through its files.
      { regex: '(^|/)features/[^/.]+/', message: 'Import a feature through its index (server/features/<f>), not its files.' },
    ]),
  },
  {
    // SQL lives in a feature's repositories (the credits ledger is its own: balance rules and statements in one
    // place); routes, services and jobs call them.
    files: ['server/features/**/*.ts'],
    // A *.suite.ts holds test bodies that several specs run (one storage or database each).
    ignores: ['server/features/**/*.repository.ts', 'server/features/**/*.spec.ts', 'server/features/**/*.suite.ts', 'server/features/credits/ledger.ts'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.property.name='query'][arguments.0.type=/^(Literal|TemplateLiteral)$/]", message: 'SQL belongs in the feature\'s <f>.repository.ts.' }],
    },
  },
  {
    files: ['server/features/*/**/*.ts'],
    rules: restrict([
      { group: ['**/src/core', '**/src/core/**', '**/src/shell/**', '**/src/plugins/**'], message: 'The server imports the contract, never browser code.' },
      { regex: '^\\.\\./[^./][^/]*/', message: 'A feature uses another feature through its index (../<f>), never its files.' },
    ]),
  },
];
