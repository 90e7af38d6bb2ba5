import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

const importSettings = {
  'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
  'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
  'import-x/resolver-next': [
    createTypeScriptImportResolver({
      project: ['apps/server/tsconfig.json', 'apps/web/tsconfig.json', 'packages/*/tsconfig.json'],
      noWarnOnMultipleProjects: true,
    }),
  ],
};

/** No import cycles; type-only imports do not count (they vanish at run time), packages are not followed. */
function noCycle(files) {
  return {
    files,
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  };
}

/**
 * The import rules of a server source tree (`src`, relative to the repository root): no cycles;
 * app/ is the composition root and nothing imports it; shared/ is plumbing that imports no
 * module; a module reaches another only through that module's index.ts (its public face), and so
 * does app/. engines/ (the engine interface, registry and one folder per engine) imports shared/
 * and packages, never a module or app/ (a module hands an engine what it needs through a port),
 * and modules and app/ reach the engines only through engines/index.ts. Tests sit above the
 * modules like the composition root and may arrange state anywhere.
 * Tables: each module declares its own in `<module>.tables.ts`, and only its repositories (and
 * other tables files, for foreign keys) import them; `shared/db/schema.ts` is the index that
 * re-exports every tables file for drizzle-kit, migrations and tests, and no module imports it.
 * A repository reads another module's table only where `tableReads` names it (reader module ->
 * owner modules): a join across modules that is worth one query.
 * Exported for the test that proves each rule on deliberately bad imports.
 */
export function serverImportRules(src, tableReads = {}) {
  const srcDir = path.join(root, src);
  const modulesDir = path.join(srcDir, 'modules');
  const moduleNames = readdirSync(modulesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const enginesDir = path.join(srcDir, 'engines');
  const indexOf = (name) => `./${name}/index.ts`;
  const tablesOf = (name) => `./${name}/${name}.tables.ts`;
  const schemaIndex = path.join(srcDir, 'shared', 'db', 'schema.ts');
  const compositionZones = [
    {
      target: [modulesDir, path.join(srcDir, 'shared')],
      from: path.join(srcDir, 'app'),
      message: 'app/ is the composition root: modules and shared code never import it.',
    },
    {
      target: path.join(srcDir, 'shared'),
      from: modulesDir,
      message: 'shared/ is plumbing every module may use: it imports no module.',
    },
    {
      target: path.join(srcDir, 'app'),
      from: modulesDir,
      except: moduleNames.map(indexOf),
      message: 'The composition root uses each module through its index.ts.',
    },
    {
      target: enginesDir,
      from: [modulesDir, path.join(srcDir, 'app')],
      message:
        'engines/ knows no feature: it imports shared/ and packages only; a module passes it what it needs through a port (deps).',
    },
    {
      target: [modulesDir, path.join(srcDir, 'app')],
      from: enginesDir,
      except: ['./index.ts'],
      message: 'Modules and the composition root use the engines through engines/index.ts.',
    },
    {
      target: [modulesDir, path.join(srcDir, 'app'), enginesDir],
      from: schemaIndex,
      message:
        'A module imports its own tables (<module>.tables.ts); the schema index is for drizzle-kit, migrations and tests.',
    },
  ];
  const zones = [
    ...compositionZones,
    ...moduleNames.map((name) => ({
      target: path.join(modulesDir, name),
      from: modulesDir,
      except: [
        `./${name}`,
        ...moduleNames.filter((other) => other !== name).map(indexOf),
        ...(tableReads[name] ?? []).map(tablesOf),
      ],
      message:
        'Another module is reached only through its index.ts (its public face); its tables only where tableReads allows the join.',
    })),
    {
      target: `${modulesDir}/*/!(*.repository|*.tables).ts`,
      from: `${modulesDir}/*/*.tables.ts`,
      message:
        "Only a repository touches tables: use cases, routes and jobs go through the module's repository.",
    },
  ];
  const tablesFiles = `${src}/modules/*/*.tables.ts`;
  const restrictedPaths = (zoneList) => ({
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: zoneList }] },
  });
  return [
    noCycle([`${src}/**/*.ts`]),
    {
      files: [`${src}/**/*.ts`],
      ignores: [`${src}/**/*.test.ts`, `${src}/test/**`, tablesFiles, `${src}/shared/db/schema.ts`],
      ...restrictedPaths(zones),
    },
    {
      files: [tablesFiles],
      ...restrictedPaths([
        ...compositionZones,
        {
          target: modulesDir,
          from: modulesDir,
          except: moduleNames.map(tablesOf),
          message:
            'A tables file declares columns and foreign keys: it imports other tables files and shared/ only.',
        },
      ]),
    },
    {
      files: [`${src}/shared/db/schema.ts`],
      ...restrictedPaths([
        {
          target: schemaIndex,
          from: modulesDir,
          except: moduleNames.map(tablesOf),
          message: "The schema index re-exports the modules' tables files and nothing else of a module.",
        },
      ]),
    },
    {
      files: [`${src}/modules/*/index.ts`],
      rules: {
        'no-restricted-syntax': [
          'error',
          {
            selector:
              "ExportNamedDeclaration[exportKind='value'][source.value=/\\.repository(\\.js)?$/] > ExportSpecifier[exportKind='value']",
            message: "A module's face offers use cases, not its repository (row types may be exported).",
          },
        ],
      },
    },
  ];
}

/**
 * The rules of the workspace packages (`packages`, relative to the repository root): a package is a
 * library the apps use, so it never imports an app (`apps`), and it holds no database, HTTP server,
 * network client or app logging: what it needs is passed in by the app.
 * Exported for the test that proves each rule on deliberately bad imports.
 */
export function packageImportRules(packages, apps) {
  const serverOnly = ['drizzle-orm', 'pg', 'fastify', 'pino', 'graphile-worker', '@sentry/node'];
  return [
    {
      files: [`${packages}/*/src/**/*.ts`],
      plugins: { 'import-x': importX },
      settings: importSettings,
      rules: {
        'import-x/no-restricted-paths': [
          'error',
          {
            zones: [
              {
                target: path.join(root, packages),
                from: path.join(root, apps),
                message: 'A package never imports an app: the apps import packages, not the other way.',
              },
            ],
          },
        ],
        'no-restricted-imports': [
          'error',
          {
            paths: [
              ...serverOnly.map((name) => ({
                name,
                message:
                  'Packages hold no database, HTTP server or app logging: take what you need as a parameter.',
              })),
              ...['node:http', 'node:https', 'node:net', 'http', 'https', 'net'].map((name) => ({
                name,
                message: 'Packages make no network calls: the app does the I/O and passes the bytes in.',
              })),
            ],
            patterns: [
              {
                group: ['@mirra/server', '@mirra/web', '@mirra/server/*', '@mirra/web/*'],
                message: 'A package never imports an app.',
              },
            ],
          },
        ],
        'no-restricted-globals': [
          'error',
          {
            name: 'fetch',
            message: 'Packages make no network calls: the app does the I/O and passes the bytes in.',
          },
        ],
      },
    },
  ];
}

/**
 * The import rules of a web source tree (`src`, relative to the repository root): no cycles;
 * app/ is the composition root and only main.tsx imports it; components/ and lib/ are shared
 * parts that import no feature; a feature reaches another only through that feature's public
 * face: its index.ts, or an entry for loading on demand (`*.lazy.ts` beside the index), and so
 * does app/. Tests may arrange state anywhere. Exported for the test that proves each rule on
 * deliberately bad imports.
 */
export function webImportRules(src) {
  const srcDir = path.join(root, src);
  const featuresDir = path.join(srcDir, 'features');
  const features = readdirSync(featuresDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const faceOf = (name) => [
    `./${name}/index.ts`,
    ...readdirSync(path.join(featuresDir, name))
      .filter((file) => /\.lazy\.tsx?$/.test(file))
      .map((file) => `./${name}/${file}`),
  ];
  const shared = ['components', 'lib', 'theme'].map((dir) => path.join(srcDir, dir));
  const zones = [
    {
      target: [featuresDir, ...shared],
      from: path.join(srcDir, 'app'),
      message: 'app/ is the composition root: only main.tsx imports it.',
    },
    {
      target: shared,
      from: featuresDir,
      message: 'components/, lib/ and theme/ are shared by every feature: they import none.',
    },
    ...features.map((name) => ({
      target: path.join(featuresDir, name),
      from: featuresDir,
      except: [`./${name}`, ...features.filter((other) => other !== name).flatMap(faceOf)],
      message: 'Another feature is reached only through its index.ts (or its *.lazy.ts entries).',
    })),
    {
      target: path.join(srcDir, 'app'),
      from: featuresDir,
      except: features.flatMap(faceOf),
      message: 'The composition root uses each feature through its index.ts (or its *.lazy.ts entries).',
    },
  ];
  return [
    noCycle([`${src}/**/*.{ts,tsx}`]),
    {
      files: [`${src}/**/*.{ts,tsx}`],
      ignores: [`${src}/**/*.test.{ts,tsx}`, `${src}/test/**`],
      plugins: { 'import-x': importX },
      settings: importSettings,
      rules: { 'import-x/no-restricted-paths': ['error', { zones }] },
    },
    {
      // Pages make no requests of their own: they use their features' hooks.
      files: [`${src}/app/routes/**/*.{ts,tsx}`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: '/lib/(api-client|api-transfer|sse)$',
                message: "A page makes no requests: it uses the owning feature's hooks.",
              },
            ],
          },
        ],
        'no-restricted-syntax': [
          'error',
          {
            selector: 'ImportSpecifier[imported.name=/Api$/]',
            message: "A page makes no requests: it uses the owning feature's hooks, not its API.",
          },
        ],
      },
    },
  ];
}

/**
 * The joins a repository makes into another module's tables (reader -> owners), each read in
 * the same query as the reader's own rows. Every other read goes through the owner's index.
 */
const serverTableReads = {
  // The audit log names the staff member who acted.
  admin: ['users'],
  // A refresh finds the token with its owner's active and ban flags in one locked query.
  auth: ['users'],
  // The signed-in person is read together with their live session family, one query per request.
  users: ['auth'],
  // Feeds show each post's author, and the following tab joins whom the viewer follows; a result
  // share is served from its generation; the review queue orders posts by their takedown requests.
  posts: ['users', 'social', 'generations', 'takedowns'],
  // Staff lists name each generation's owner; a generation's inputs are the owner's uploads; a
  // premium subscriber's generations queue first (reads the `premium` entitlement).
  generations: ['users', 'uploads', 'payments'],
  // The balance answer tells when the person's `unlimited` package ends.
  credits: ['payments'],
  // Entitlements are shared by design: payments grants `unlimited`, a premium subscription keeps
  // `premium` in step with its access; a subscriber's Telegram id is read to message them.
  subscriptions: ['payments', 'users'],
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '**/drizzle/meta/**',
      'test-results/**',
      '.artifacts/**',
      // Deliberately bad imports, linted only by their own test.
      'apps/server/src/test/lint-fixtures/**',
      'apps/web/src/test/lint-fixtures/**',
    ],
  },
  js.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The web app calls the API through the route declarations of @mirra/contracts, never by a
    // hand-written path (tests may name the URLs they fake).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/^\\/api\\//], TemplateElement[value.raw=/^\\/api\\//]',
          message: 'Call the API by its declaration: api(routes.<feature>.<name>, { params, query, body }).',
        },
      ],
    },
  },
  ...serverImportRules('apps/server/src', serverTableReads),
  ...packageImportRules('packages', 'apps'),
  ...webImportRules('apps/web/src'),
  noCycle(['packages/*/src/**/*.ts']),
  {
    // Scripts and benchmarks talk to the terminal.
    files: ['**/scripts/**', 'bench/**', 'e2e/**'],
    rules: { 'no-console': 'off' },
  },
);
