*** Settings ***
Documentation     micro_runtime tests driven from Robot Framework with the harness's engine.
...               Runs on the bluepill in its emulator (QEMU, or Renode when installed):
...               robot --pythonpath . --outputdir micro_runtime/gen/robot examples/robot/micro_tests.robot
...               On real boards: robot --pythonpath . --outputdir micro_runtime/gen/robot --variable MAP:rack.toml examples/robot/micro_tests.robot
Library           harness.robot.HarnessLibrary    board=${BOARD}    hardware_map=${MAP}

*** Variables ***
${BOARD}          bluepill
${MAP}            ${EMPTY}
${MODELS}         ${CURDIR}/../../micro_runtime/examples/hello_world/models

*** Test Cases ***
Kernel Helpers Pass On The Board
    ${elf}=    Build Micro Test    kernel_util_test
    ${outcome}=    Run On Board    ${elf}
    Micro Test Should Pass
    Should Be Equal    ${outcome}    passed
    Log Should Contain    DONE PASSED

Individual Cases Are Visible
    Run Micro Test    kernel_util_test
    Case Should Have Passed    ShapesAndTypes
    Failure Class Should Be    passed

A Model Gives The Reference Outputs On The Board
    ${result}=    Run Model    ${MODELS}/hello_world_int8.tflite    ${MODELS}/hello_world_int8_cases.json
    Should Be Equal    ${result}[board]    ${BOARD}
    # Case 0 of the cases file: input -128 -> 4, as TFLM's reference interpreter computes.
    Should Be Equal As Integers    ${result}[cases][0][output][0][0]    4
