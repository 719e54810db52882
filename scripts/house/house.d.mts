// Types of house.mjs for the tests.
export const rooms: Record<string, string[]>;
export function circles(root: string): string[][];
export function roomViolations(root: string, graph?: unknown, table?: Record<string, string[]>): string[];
export function withoutPurpose(root: string): string[];
export function checkHouse(root: string): { circles: string[][]; rooms: string[]; purpose: string[] };
