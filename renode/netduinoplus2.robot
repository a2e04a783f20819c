# Generated from boards/netduinoplus2/board.toml by harness.renode_scripts; do not edit.
# Netduino Plus 2, STM32F405RG (Cortex-M4F, 1 MB flash, 128 KB RAM)
# Runs one micro_test firmware and passes when it reports ~~~ALL TESTS PASSED~~~:
#   renode-test renode/netduinoplus2.robot --variable ELF:@/abs/path/fw.elf

*** Settings ***
Suite Setup                   Setup
Suite Teardown                Teardown
Test Teardown                 Test Teardown
Resource                      ${RENODEKEYWORDS}

*** Variables ***
${ELF}                        @${CURDIR}/fw.elf
${PLATFORM}                   @platforms/cpus/stm32f4.repl
${LOG_UART}                   sysbus.usart2
${TIMEOUT}                    120

*** Keywords ***
Create Board
    Execute Command           mach create "netduinoplus2"
    Execute Command           machine LoadPlatformDescription ${PLATFORM}
    Execute Command           machine LoadPlatformDescriptionFromString "semihosting: UART.SemihostingUart @ cpu"
    Execute Command           sysbus.cpu VectorTableOffset 0x08000000
    Execute Command           sysbus LoadELF ${ELF}

*** Test Cases ***
Firmware Passes Its Tests
    Create Board
    Create Terminal Tester    ${LOG_UART}    timeout=${TIMEOUT}
    Register Failing Uart String    ~~~SOME TESTS FAILED~~~
    Register Failing Uart String    *** HardFault:
    Start Emulation
    Wait For Line On Uart     ~~~ALL TESTS PASSED~~~
