# Generated from boards/netduinoplus2/board.toml by harness.runners.renode_scripts; do not edit.
# Netduino Plus 2, STM32F405RG (Cortex-M4F, 1 MB flash, 128 KB RAM)
# Runs one micro_test firmware; the harness's own reader judges its whole log after the end line
# (end of run, every case closed, records in sequence, per-case verdicts), so the harness must be
# importable in renode-test's Python:
#   PYTHONPATH=$PWD renode-test renode/netduinoplus2.robot --variable ELF:@/abs/path/fw.elf
# Renode 1.14.0 or newer (no keyword from a later release); the semihosting syntax
# is Renode's own answer: CPU.SemihostingHandler where the type exists (master since 2026-06-08).

*** Settings ***
Suite Setup                   Setup
Suite Teardown                Teardown
Test Teardown                 Test Teardown
Resource                      ${RENODEKEYWORDS}
Library                       harness.robot.HarnessLibrary    board=netduinoplus2

*** Variables ***
${ELF}                        @${CURDIR}/fw.elf
${LOGFILE}                    ${OUTPUT_DIR}/netduinoplus2-device.log
${GRACE}                      0.3s
${PLATFORM}                   @${CURDIR}/netduinoplus2.repl
${UART}                       sysbus.usart2
${TIMEOUT}                    120
${END}                        ~~~MT [0-9]+ [0-9a-f]+ DONE PASSED|~~~MT [0-9]+ [0-9a-f]+ DONE FAILED|[*][*][*] HardFault:

*** Keywords ***
Create Board
    [Documentation]           Creates the machine; returns the peripheral the log goes to.
    Execute Command           mach create "netduinoplus2"
    Execute Command           machine LoadPlatformDescription ${PLATFORM}
    Execute Command           sysbus Tag <0x00100000 0x7F00000> "outside-the-chip" 0 true
    Execute Command           sysbus Tag <0x08100000 0x17F00000> "outside-the-chip" 0 true
    Execute Command           sysbus Tag <0x20020000 0x1FFE0000> "outside-the-chip" 0 true
    Execute Command           sysbus Tag <0x40007800 0x8800> "outside-the-chip" 0 true
    Execute Command           sysbus Tag <0x40014C00 0xB400> "outside-the-chip" 0 true
    Execute Command           sysbus Tag <0x40080000 0xFF80000> "outside-the-chip" 0 true
    Execute Command           sysbus Tag <0x50060C00 0x8FF9F400> "outside-the-chip" 0 true
    Execute Command           sysbus Tag <0xE0100000 0x1FF00000> "outside-the-chip" 0 true
    ${handler}=               Run Keyword And Return Status    Execute Command    machine LoadPlatformDescriptionFromString "semihosting: CPU.SemihostingHandler @ cpu"
    IF    ${handler}
        Execute Command       machine LoadPlatformDescriptionFromString "console: UART.SemihostingUart @ semihosting"
        ${semihosting}=       Set Variable    sysbus.cpu.semihosting.console
    ELSE
        Execute Command       machine LoadPlatformDescriptionFromString "semihosting: UART.SemihostingUart @ cpu"
        ${semihosting}=       Set Variable    sysbus.cpu.semihosting
    END
    Execute Command           sysbus.nvic Frequency 16000000
    Execute Command           sysbus.cpu VectorTableOffset 0x08000000
    Execute Command           sysbus LoadELF ${ELF}
    ${log}=                   Set Variable    ${UART}
    Execute Command           ${log} CreateFileBackend @${LOGFILE} true
    RETURN                    ${log}

*** Test Cases ***
Firmware Passes Its Tests
    ${log}=                   Create Board
    Create Terminal Tester    ${log}    timeout=${TIMEOUT}
    Start Emulation
    ${end}=                   Wait For Line On Uart    ${END}    treatAsRegex=true
    Should Contain            ${end.line}    DONE PASSED
    Sleep                     ${GRACE}
    Log File Should Pass      ${LOGFILE}    ${ELF}
