// The shape of one entry in the command table (program.ts): a function that adds a command, its flags and
// its lazily loaded action to the program.
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

/** Adds one command (with its flags and action) under `parent`; returns it. */
export type DefineCommand = (parent: Command, context: CommandContext) => Command;
