*** Settings ***
Documentation     Deliberately failing suite: the harness test checks Robot reports these as FAIL.
Library           harness.robot.HarnessLibrary    board=bluepill

*** Test Cases ***
Expects Text The Firmware Never Prints
    Run Micro Test    kernel_util_test
    Log Should Contain    this line is not in any device log

Expects A Case That Does Not Exist
    Run Micro Test    kernel_util_test
    Case Should Have Passed    NoSuchCase

Passing Control Case
    Run Micro Test    kernel_util_test
    Micro Test Outcome Should Be    passed
