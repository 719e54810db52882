// The container image is built from the repository itself (issue 20): the Dockerfile packs the project and
// installs that tarball, never a name from a registry, and the README's CronJob runs the image it builds.
// Docker is not on the test machines: this reads the Dockerfile as docker would, instruction by instruction.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { root } from '../helpers/cli.js';
import { codeBlocks, readmeSection, shellCommands } from '../helpers/readme.js';

const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string })
  .version;
const image = `registry.example.com/revimport:${version}`;

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions: comments dropped, backslash continuations joined. */
function instructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [keyword = '', ...rest] = line.trim().split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

describe('Dockerfile', () => {
  const text = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const steps = instructions(text);
  const stages = steps.flatMap((s, i) => (s.keyword === 'FROM' ? [i] : []));
  const finalStage = steps.slice(stages.at(-1));
  const runs = steps.filter((s) => s.keyword === 'RUN').map((s) => s.args);

  it('builds from the project: npm ci, build, npm pack, then npm install -g of the packed .tgz', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(text).not.toMatch(/\bnpx\b/);
    const build = runs.join(' && ');
    expect(build).toMatch(/npm ci\b/);
    expect(build).toMatch(/npm pack\b/);
    const installs = [...build.matchAll(/npm install -g ([^&]*)/g)].map((m) => m[1] ?? '');
    expect(installs.length).toBeGreaterThan(0);
    for (const args of installs) {
      // Every package it installs is a local tarball path, never a name the registry resolves.
      const packages = args
        .split(/\s+/)
        .filter((a) => a !== '' && !a.startsWith('-') && !a.startsWith('/opt'));
      expect(packages.length).toBeGreaterThan(0);
      for (const p of packages) expect(p).toMatch(/^\/\S+\.tgz$/);
    }
  });

  it('runs from a slim node image as a user other than root, with revimport as its entry point', () => {
    expect(finalStage[0]?.args).toMatch(/^node:\S*-slim$/);
    const users = finalStage.filter((s) => s.keyword === 'USER').map((s) => s.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const entrypoint = finalStage.find((s) => s.keyword === 'ENTRYPOINT');
    expect(JSON.parse(entrypoint?.args ?? 'null')).toEqual(['revimport']);
    // Every base image is the official node image (the build's only source besides this repository).
    for (const i of stages) expect(steps[i]?.args).toMatch(/^node:\$\{NODE_VERSION\}-\S+( AS \w+)?$/i);
  });

  it('copies only files of the repository, and .dockerignore keeps local builds and modules out', () => {
    for (const step of steps.filter((s) => s.keyword === 'COPY' && !s.args.startsWith('--from'))) {
      const sources = step.args.split(/\s+/).slice(0, -1);
      for (const source of sources) expect(existsSync(path.join(root, source))).toBe(true);
    }
    const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.git']));
  });
});

describe('README: the Kubernetes CronJob runs the image built from the Dockerfile', () => {
  const section = readmeSection('Running from containers or several machines');

  it('builds it with docker build -t from the clone', () => {
    const commands = codeBlocks(section, 'sh').flatMap(shellCommands);
    expect(commands.some((c) => c.startsWith(`docker build -t ${image} .`))).toBe(true);
  });

  it('runs revimport push in that image', () => {
    const jobs = codeBlocks(section, 'yaml').map((block) => parse(block));
    const cronJob = jobs.find((doc) => doc?.kind === 'CronJob');
    const containers = cronJob?.spec.jobTemplate.spec.template.spec.containers;
    expect(containers).toHaveLength(1);
    expect(containers[0].image).toBe(image);
    expect(containers[0].command.slice(0, 2)).toEqual(['revimport', 'push']);
  });
});
