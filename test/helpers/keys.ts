/**
 * Key escape sequences as a terminal sends them (xterm), for driving the TUI through a fake stdin
 * (style.md §1.7: never inline literals in tests).
 */
export const UP = '\u001B[A';
export const DOWN = '\u001B[B';
export const RIGHT = '\u001B[C';
export const LEFT = '\u001B[D';
export const PAGE_UP = '\u001B[5~';
export const PAGE_DOWN = '\u001B[6~';
export const HOME = '\u001B[H';
export const END = '\u001B[F';
export const ENTER = '\r';
export const ESC = '\u001B';
export const TAB = '\t';
export const SHIFT_TAB = '\u001B[Z';
export const BACKSPACE = '\u007F';
export const DELETE = '\u001B[3~';
export const CTRL_C = '\u0003';
