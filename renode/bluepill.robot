# Generated from boards/bluepill/board.toml by harness.renode_scripts; do not edit.
# STM32F103C8 Blue Pill (Cortex-M3, 64 KB flash, 20 KB RAM)
# Runs one micro_test firmware and passes when it reports ~~~ALL TESTS PASSED~~~:
#   renode-test renode/bluepill.robot --variable ELF:@/abs/path/fw.elf

*** Settings ***
Suite Setup                   Setup
Suite Teardown                Teardown
Test Teardown                 Test Teardown
Resource                      ${RENODEKEYWORDS}

*** Variables ***
${ELF}                        @${CURDIR}/fw.elf
${PLATFORM}                   @platforms/cpus/stm32f103.repl
${LOG_UART}                   sysbus.usart2
${TIMEOUT}                    60

*** Keywords ***
Create Board
    Execute Command           mach create "bluepill"
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
