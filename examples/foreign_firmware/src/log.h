/* The firmware's one output channel: a line of text out, and the end of the program.
 *
 * Two implementations, one linked per build (Makefile LOG=...):
 *   log_uart.c         USART2, 115200 8N1 on the chip's reset clock; log_exit never returns
 *                      and never ends anything (there is nobody to tell): the core sleeps.
 *   log_semihosting.c  ARM semihosting through the debugger or emulator; log_exit ends the
 *                      session with the status as exit code.
 */
#ifndef LOG_H
#define LOG_H

/* Writes a NUL-terminated string as is (no newline added). */
void log_write(const char *text);

/* The program is over: 0 = every test passed, anything else = failure. Never returns. */
__attribute__((noreturn)) void log_exit(int status);

#endif
