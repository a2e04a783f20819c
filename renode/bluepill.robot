# Generated from boards/bluepill/board.toml by harness.runners.renode_scripts; do not edit.
# STM32F103C8 Blue Pill (Cortex-M3, 64 KB flash, 20 KB RAM)
# Runs one micro_test firmware; the harness's own reader judges its whole log after the end line
# (end of run, every case closed, records in sequence, per-case verdicts), so the harness must be
# importable in renode-test's Python:
#   PYTHONPATH=$PWD renode-test renode/bluepill.robot --variable ELF:@/abs/path/fw.elf
# Renode 1.14.0 or newer (no keyword from a later release); the semihosting syntax
# is Renode's own answer: CPU.SemihostingHandler where the type exists (master since 2026-06-08).

*** Settings ***
Suite Setup                   Setup
Suite Teardown                Teardown
Test Teardown                 Test Teardown
Resource                      ${RENODEKEYWORDS}
Library                       harness.robot.HarnessLibrary    board=bluepill

*** Variables ***
${ELF}                        @${CURDIR}/fw.elf
${LOGFILE}                    ${OUTPUT_DIR}/bluepill-device.log
${GRACE}                      0.3s
${PLATFORM}                   @${CURDIR}/bluepill.repl
${UART}                       sysbus.usart2
${TIMEOUT}                    60
${END}                        ~~~MT [0-9]+ [0-9a-f]+ DONE PASSED|~~~MT [0-9]+ [0-9a-f]+ DONE FAILED|[*][*][*] HardFault:

*** Keywords ***
Create Board
    [Documentation]           Creates the machine; returns the peripheral the log goes to.
    Execute Command           mach create "bluepill"
    Execute Command           machine LoadPlatformDescription ${PLATFORM}
    Execute Command           sysbus Tag <0x00010000 0x7FF0000> "outside-the-chip" 0 true
    Execute Command           sysbus Tag <0x08010000 0x17FF0000> "outside-the-chip" 0 true
    Execute Command           sysbus Tag <0x20005000 0x1FFFB000> "outside-the-chip" 0 true
    Execute Command           sysbus Tag <0x40007400 0x8C00> "outside-the-chip" 0 true
    Execute Command           sysbus Tag <0x40013C00 0xC400> "outside-the-chip" 0 true
    Execute Command           sysbus Tag <0x40023400 0x9FFDCC00> "outside-the-chip" 0 true
    Execute Command           sysbus Tag <0xE0100000 0x1FF00000> "outside-the-chip" 0 true
    ${handler}=               Run Keyword And Return Status    Execute Command    machine LoadPlatformDescriptionFromString "semihosting: CPU.SemihostingHandler @ cpu"
    IF    ${handler}
        Execute Command       machine LoadPlatformDescriptionFromString "console: UART.SemihostingUart @ semihosting"
        ${semihosting}=       Set Variable    sysbus.cpu.semihosting.console
    ELSE
        Execute Command       machine LoadPlatformDescriptionFromString "semihosting: UART.SemihostingUart @ cpu"
        ${semihosting}=       Set Variable    sysbus.cpu.semihosting
    END
    Execute Command           sysbus.nvic Frequency 8000000
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
