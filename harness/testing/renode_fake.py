#!/usr/bin/env python3
"""A stand-in ``renode`` for the session tests (harness/runners/renode_session_test.py).

Renode is not installable here. This fake is as strict as the real monitor on every point the
harness relies on, each taken from Renode's source (renode-infrastructure src/Emulator/...,
renode's lib/AntShell):

- ``--port N`` serves a telnet monitor (Main/Utilities/SocketServerProvider.cs): the same
  negotiation bytes first; output written before a client connects is queued, not lost.
- The shell (AntShell Shell.cs, CommandLine.cs, NavigableTerminalEmulator.cs) prints the banner
  (the version line) and a prompt, then handles input one line at a time: each typed character is
  echoed on its own, ``\\r`` or ``\\n`` is Enter (an empty line just prints a new prompt), a
  newline is written as ``\\n\\r``, command output lines end ``\\r\\n\\r`` (WriteLine) and errors
  ``\\r\\n`` (WriteError), then the prompt: ``(monitor) `` or ``(<machine>) ``, coloured unless
  ``--plain``.
- Commands: ``version``; ``mach create/set/rem "name"`` (``Machine x not found.``, as
  MachCommand.cs says it); ``machine LoadPlatformDescription`` for the two bundled platforms it
  knows (any other file: ``Could not find file``); ``machine LoadPlatformDescriptionFromString``
  for semihosting in the syntax of the fake's version (UART.SemihostingUart on the CPU up to
  1.16.1; CPU.SemihostingHandler + UART on the handler in master since 2026-06-08; the other one
  is refused); ``machine Reset``; ``<uart> CreateFileBackend``; ``<cpu> VectorTableOffset``;
  ``<cpu> IsHalted``; ``<nvic> Frequency``; ``sysbus WriteDoubleWord``; ``sysbus LoadELF`` (refused
  unless the emulation is paused: "Cannot load ELF on an unpaused machine."); ``start`` (runs every
  machine whose CPU is not halted), ``pause``, ``quit``. Unknown peripherals and commands:
  ``No such command or device``.

- ``sysbus Tag <start size> "name" default pausing`` (a pausing tag stops the machine at an access there, with
  ``(tag: 'name')`` in the warning: recorded from 1.14.0, 2d_pausing_tag), ``numbersMode`` (how
  ``sysbus ReadDoubleWord`` prints its UInt32), ``<cpu> IsHalted``/``PC`` read, a peripheral alone (its members).

It proves the harness's side of the protocol, not how a real Renode behaves beyond these rules; where the
recordings cover it, it must answer byte for byte as the real Renode did (harness/runners/renode_replay_test.py
plays recording 1d of 1.14.0 and 1.16.1 against it).

The "firmware" is the text after the first line of the loaded ELF file: each line is written to
the machine's first sysbus UART file backend; ``SLEEP s`` waits, ``HANG`` runs until paused,
``DIE`` ends the process, ``ABORT`` logs Renode's CPU abort line (as recorded) and stops,
``SYSTICK`` writes ``systick <Hz>`` (the NVIC's frequency), ``STORE 0x<addr>`` / ``LOAD 0x<addr>`` access
the bus: where the loaded platform maps nothing, Renode's ``non existing peripheral`` warning is logged
(as recorded from 1.14.0, 2d_unmapped_minimal_bluepill) and the firmware goes on; ``FAULT_REGISTERS`` logs
the NVIC's ``Unhandled read`` warnings for HFSR, MMFAR and BFAR (as recorded, 2b_nullcall_bluepill),
``EXIT 0x<addr> <status>`` writes the board code's exit word there (``g_micro_exit``) and halts; ``sysbus
ReadDoubleWord`` reads words written so far.
Loading a bundled platform prints the offline SVD download failure line (recorded). A platform file given
by path (``@/abs/x.repl``, e.g. the harness's generated one) is read for its
``Memory.MappedMemory`` regions and peripherals; the bundled ones map what the recordings show
(stm32f103.repl: flash 0x0 +512 MB, SRAM +256 MB, the FSMC at 0x60000000, the peripheral buses).
$FAKE_RENODE_VERSION is the version line (default: a 1.16.1 release). $FAKE_RENODE lists
behaviours (comma-separated): ``slow-start`` (banner and prompt 1.5 s after connecting),
``stray-prompt`` (one more prompt, 0.5 s late, ahead of the first command's echo, as the late
answer to an empty line would come),
``die-once`` (exits at the first ``start`` of the test: marker in $FAKE_RENODE_RECORD's folder),
``silent-load`` (never answers LoadELF). Every command is appended to $FAKE_RENODE_RECORD as
``<pid> <command>``, and each machine a ``start`` runs as ``<pid> (running) <machine>``.
"""

from __future__ import annotations

import os
import re
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

# The 12 option bytes real Renode 1.14.0 and 1.16.1 send on connect (tests/renode_recordings/): DO BINARY,
# WILL ECHO, WILL SUPPRESS-GO-AHEAD, WONT LINEMODE (no NAWS).
IAC_NEGOTIATION = bytes([255, 253, 0, 255, 251, 1, 255, 251, 3, 255, 252, 34])
BEHAVIOUR = set(filter(None, os.environ.get("FAKE_RENODE", "").split(",")))
RECORD = Path(os.environ["FAKE_RENODE_RECORD"])
VERSION = os.environ.get("FAKE_RENODE_VERSION", "Renode, version 1.16.1 (9c4e1d0a-202602161200)")
RED, YELLOW, RESET = "\x1b[31m", "\x1b[33m", "\x1b[0m"
# The bundled platforms the fake knows, with the peripherals the harness may name.
PLATFORMS = {
    "platforms/cpus/stm32f103.repl": ["cpu", "nvic", "usart1", "usart2", "usart3", "usart4", "usart5"],
    "platforms/cpus/stm32f4.repl": ["cpu", "nvic", "usart1", "usart2", "usart3", "uart4", "uart5"],
}
PLATFORM_SYSTICK_HZ = 72_000_000  # what both .repl files give the NVIC
# What the bundled platforms map (recorded from 1.14.0, 2c_unmapped_stock_bluepill: stores to 0x60000000,
# 0x0A000000 and 0x20005000 all land in memory), as (start, size); the peripheral buses are modelled or not,
# but an access there is not "non existing" for the purpose of these tests only where a model sits.
STOCK_MAPS = {
    "platforms/cpus/stm32f103.repl": [(0x0, 0x20000000), (0x20000000, 0x10000000), (0x60000000, 0x10000000),
                                      (0x40004400, 0x100), (0xE000E000, 0x1000)],
    "platforms/cpus/stm32f4.repl": [(0x08000000, 0x200000), (0x20000000, 0x40000), (0x40004400, 0x100),
                                    (0xE000E000, 0x1000)],
}
_ENTRY = re.compile(r"^(?P<name>\w+): (?P<type>[\w.]+) @ (?P<where>.*)$")
_REGISTRATION = re.compile(r"sysbus\s+<?(0x[0-9A-Fa-f]+)(?:,\s*\+(0x[0-9A-Fa-f]+))?")
_SIZE = re.compile(r"^\s+size: (0x[0-9A-Fa-f]+|\d+)$")


def read_platform(text: str) -> tuple[list[str], list[tuple[int, int]]]:
    """(peripheral names, mapped (start, size) ranges) of a platform description (the subset the harness
    writes: harness/board/renode_platform.py, and the minimal platform of the recordings)."""
    names: list[str] = []
    mapped: list[tuple[int, int]] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        entry = _ENTRY.match(lines[index])
        index += 1
        if entry is None:
            continue
        names.append(entry["name"])
        where = entry["where"]
        while where.rstrip().endswith("{") or (where.count("{") > where.count("}")):
            where += " " + lines[index].strip()
            index += 1
        size = None
        while index < len(lines) and lines[index].startswith("    "):
            found = _SIZE.match(lines[index])
            if found is not None:
                size = int(found[1], 0)
            index += 1
        for start, extent in _REGISTRATION.findall(where):
            if extent:
                mapped.append((int(start, 16), int(extent, 16)))
            elif entry["type"] == "Memory.MappedMemory" and size is not None:
                mapped.append((int(start, 16), size))
            elif entry["type"].startswith("IRQControllers.NVIC"):
                mapped.append((int(start, 16), 0x1000))
    return names, mapped


def handler_version(text: str) -> bool:
    """CPU.SemihostingHandler: releases after 1.16.1, and master builds since 2026-06-08. A master build
    says so in its version line ("1.16.1 (1.16.1+20260608git<commit>)", renode Renode.csproj); a release
    build says "<commit>-<when it was compiled>" (a 1.16.1 release built today has today's date)."""
    match = re.search(r"version (\d+)\.(\d+)\.(\d+)[^(]*\(([^)]*)\)", text)
    assert match, text
    release = tuple(int(x) for x in match.group(1, 2, 3))
    master = re.search(r"\+(\d{8})git", match.group(4))
    return release > (1, 16, 1) or (release == (1, 16, 1) and master is not None and master.group(1) >= "20260608")


HANDLER = handler_version(VERSION)


def waits_for_replies(text: str) -> bool:
    """Renode before 1.16.0 prints its banner only after 9 client bytes (SocketServerProvider.cs, until
    renode-infrastructure 933d56403; recorded from 1.14.0)."""
    match = re.search(r"version (\d+)\.(\d+)\.(\d+)", text)
    return match is not None and tuple(int(x) for x in match.group(1, 2, 3)) < (1, 16, 0)


WAITS_FOR_REPLIES = waits_for_replies(VERSION)


def record(line: str) -> None:
    with RECORD.open("a") as handle:
        handle.write(f"{os.getpid()} {line}\n")


def token_path(token: str) -> Path:
    return Path(token.removeprefix("@").replace("\\ ", " "))


class CommandError(Exception):
    """What the monitor prints with WriteError."""


@dataclass
class Machine:
    name: str
    peripherals: dict[str, str] = field(default_factory=lambda: {"sysbus": "bus"})  # path -> kind
    backends: dict[str, Path] = field(default_factory=dict)
    elf: Path | None = None
    position: int = 0  # next firmware line
    halted: bool = False
    systick_hz: int = PLATFORM_SYSTICK_HZ
    mapped: list[tuple[int, int]] = field(default_factory=list)  # what the loaded platform maps
    memory: dict[int, int] = field(default_factory=dict)  # words written by WriteDoubleWord or the firmware
    tags: list[tuple[int, int, str, bool]] = field(default_factory=list)  # sysbus Tag: start, size, name, pausing
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def halt_thread(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join()
        self.thread = None

    def run_firmware(self) -> None:
        assert self.elf is not None
        lines = self.elf.read_text(errors="replace").split("\n", 1)[1].splitlines()
        out = next(path for name, path in self.backends.items() if name.count(".") == 1)
        while self.position < len(lines) and not self.stop.is_set():
            line = lines[self.position]
            if line.startswith("SLEEP "):
                time.sleep(float(line.split()[1]))
            elif line == "HANG":
                self.stop.wait()
                return
            elif line == "DIE":
                os._exit(5)
            elif line == "ABORT":  # tlib stops the core and Renode logs it (recorded from 1.14.0, 2b_nullcall)
                print(time.strftime("%H:%M:%S.0000") + " [ERROR] cpu: CPU abort [PC=0x0]: Trying to execute code "
                      "outside RAM or ROM at 0x00000000.", flush=True)
                self.stop.wait()
                return
            elif line.startswith(("STORE ", "LOAD ")):
                address = int(line.split()[1], 16)
                if not any(start <= address < start + size for start, size in self.mapped):
                    access = (f"WriteDoubleWord to non existing peripheral at 0x{address:X}, value 0x5A5A5A5A."
                              if line.startswith("STORE") else f"ReadDoubleWord from non existing peripheral at "
                              f"0x{address:X}.")
                    tag = next((t for t in self.tags if t[0] <= address < t[0] + t[1]), None)
                    if tag is not None and tag[3]:  # a pausing tag: the machine pauses at the access (recorded, 2d)
                        print(time.strftime("%H:%M:%S.0000") + f" [INFO] {self.name}: Machine paused.", flush=True)
                    prefix = f"(tag: '{tag[2]}') " if tag is not None else ""
                    print(time.strftime("%H:%M:%S.0000") + f" [WARNING] sysbus: [cpu: 0x8000668] {prefix}{access}",
                          flush=True)
                    if tag is not None and tag[3]:
                        self.stop.wait()
                        return
            elif line.startswith("EXIT "):  # the board code's exit word (boards/cortex_m/semihosting.c), then halt
                address, status = (int(word, 0) for word in line.split()[1:3])
                self.memory[address + 4] = status & 0xFFFFFFFF
                self.memory[address] = 0x45584954
                self.stop.wait()
                return
            elif line == "FAULT_REGISTERS":  # the fault handler reads HFSR, MMFAR, BFAR: not modelled (recorded)
                for offset in ("D2C", "D34", "D38"):
                    print(time.strftime("%H:%M:%S.0000") + f" [WARNING] nvic: Unhandled read from offset 0x{offset}.",
                          flush=True)
            else:
                with out.open("a") as handle:
                    handle.write((f"systick {self.systick_hz}" if line == "SYSTICK" else line) + "\n")
            self.position += 1


class Monitor:
    def __init__(self, conn: socket.socket, plain: bool) -> None:
        self.conn = conn
        self.plain = plain
        self.machines: dict[str, Machine] = {}
        self.current: Machine | None = None
        self.started = False
        self.numbers = "Hexadecimal"  # Monitor.cs: number-format, default Hexadecimal

    # --------------------------------------------------------------- terminal output --
    def send(self, text: str) -> None:
        self.conn.sendall(text.encode())

    def coloured(self, text: str, colour: str) -> str:
        return text if self.plain else f"{colour}{text}{RESET}"

    def prompt(self) -> None:
        if self.current is None:
            self.send(self.coloured("(monitor) ", RED))
        else:
            self.send(self.coloured(f"({self.current.name}) ", YELLOW))

    def write_line(self, text: str) -> None:  # ICommandInteractionExtensions.WriteLine
        self.send((text + "\n\r").replace("\n", "\r\n"))

    def write_error(self, text: str) -> None:  # CommandInteraction.WriteError
        self.send(self.coloured(text + "\r\n", RED))

    # ---------------------------------------------------------------------- commands --
    def machine(self) -> Machine:
        if self.current is None:
            raise CommandError("No such command or device: machine")
        return self.current

    def peripheral(self, path: str) -> str:
        kind = self.machine().peripherals.get(path) if self.current is not None else None
        if kind is None:
            raise CommandError(f"No such command or device: {path}")
        return kind

    def handle(self, cmd: str) -> None:
        words = cmd.split()
        if cmd == "version":
            self.write_line(VERSION)
        elif words[0] == "mach":
            self.mach(cmd, words)
        elif words[:2] == ["machine", "LoadPlatformDescription"] and len(words) == 3:
            self.load_platform(cmd, words[2])
        elif words[:2] == ["machine", "LoadPlatformDescriptionFromString"]:
            self.load_string(cmd, cmd.split(" ", 2)[2])
        elif cmd == "machine Reset":
            machine = self.machine()
            machine.halt_thread()
            machine.position = 0
            machine.systick_hz = PLATFORM_SYSTICK_HZ  # LimitTimer.Reset: back to the initial frequency
            if HANDLER:
                machine.halted = False  # master's CortexM.Reset releases the CPU; 1.16.1 and older do not
        elif words[:2] == ["sysbus", "LoadELF"] and len(words) >= 3:
            self.load_elf(cmd, token_path(cmd.split(" ", 2)[2]))
        elif words[:2] == ["sysbus", "WriteDoubleWord"] and len(words) == 4:
            self.machine().memory[int(words[2], 0)] = int(words[3], 0) & 0xFFFFFFFF
        elif words[:2] == ["sysbus", "ReadDoubleWord"] and len(words) == 3:
            # A UInt32 result as the monitor prints it (MonitorCommands.cs PrintActionResult + GetNumberFormat,
            # renode-infrastructure 6a0ba28d lines 276-296 = 1.14.0, add012af lines 1136-1164 = 1.16.1): the
            # number mode's format with X widened to 8 digits ("0x{0:X8}" by default, "{0}" Decimal, "0x{0:X8}
            # ({0})" Both), then "\r\n", which the terminal writes as "\r\r\n" (as recorded for True, 1d).
            value = self.machine().memory.get(int(words[2], 0), 0)
            text = {"Hexadecimal": f"0x{value:08X}", "Decimal": f"{value}", "Both": f"0x{value:08X} ({value})"}
            self.send(text[self.numbers] + "\r\r\n")
        elif words[0] == "numbersMode" and len(words) == 2 and words[1] in ("Hexadecimal", "Decimal", "Both"):
            self.numbers = words[1]  # NumbersModeCommand.cs (Renode's config key number-format sets the default)
        elif words[:2] == ["sysbus", "Tag"]:
            self.tag(cmd)
        elif cmd == "start":
            self.start()
        elif cmd == "pause":
            self.write_line("Pausing emulation...")
            for machine in self.machines.values():
                machine.halt_thread()
            self.started = False
        elif len(words) >= 2:
            self.property_or_method(cmd, words)
        elif self.current is not None and words[0] in self.current.peripherals:
            # A peripheral alone lists its members (recorded, 1e/1d); the fake names only the kind.
            self.send("\r\n")
            self.write_line(f"The following methods are available ({self.current.peripherals[words[0]]}):")
        else:
            raise CommandError(f"No such command or device: {words[0]}")

    def tag(self, cmd: str) -> None:
        """``sysbus Tag <start size> "name" default pausing`` (the relative range; ``<start, end>`` is the absolute
        one, Tokenizer.cs:49-52; ``<start, +size>`` does not tokenize: recorded from 1.14.0, 2d_pausing_tag)."""
        match = re.fullmatch(r'sysbus Tag <\s*(0x[0-9A-Fa-f]+|\d+)\s+(0x[0-9A-Fa-f]+|\+?\d+)\s*> "([^"]*)"'
                             r"(?: (0x[0-9A-Fa-f]+|\d+))?(?: (true|false))?", cmd)
        if match is None:
            at = cmd.index("<") if "<" in cmd else 0
            raise CommandError(f"Could not tokenize here:\r\n{cmd}\r\n{' ' * at}^")
        start, size = int(match[1], 0), int(match[2], 0)
        self.machine().tags.append((start, size, match[3], match[5] == "true"))

    def mach(self, cmd: str, words: list[str]) -> None:
        match = re.fullmatch(r'mach (create|set|rem) "([^"]+)"', cmd)
        if match is None:
            raise CommandError(f"Bad parameters for command mach {' '.join(words[1:])}")
        action, name = match.groups()
        if action == "create":
            if name in self.machines:
                raise CommandError(f"There was an error executing command '{cmd}'\r\nMachine {name} already exists.")
            self.current = self.machines[name] = Machine(name)
        elif name not in self.machines:
            raise CommandError(f"Machine {name} not found.")  # MachCommand.cs: no other marker
        elif action == "set":
            self.current = self.machines[name]
        else:
            removed = self.machines.pop(name)
            removed.halt_thread()
            if self.current is removed:
                self.current = None

    def load_platform(self, cmd: str, token: str) -> None:
        machine = self.machine()
        path = token.removeprefix("@")
        names = PLATFORMS.get(path)
        if names is not None:
            machine.mapped = list(STOCK_MAPS[path])
            # The bundled platforms fetch their SVD file; offline (as recorded from 1.14.0, 1d_full_session)
            # the download fails, Renode says so in one line and the platform still loads.
            svd = "STM32F103" if "f103" in path else "STM32F40x"
            self.write_error(f"Failed to download https://dl.antmicro.com/projects/renode/svd/{svd}.svd.gz, "
                             "see log for details.")
        elif Path(path).is_absolute() and Path(path).is_file():
            names, machine.mapped = read_platform(Path(path).read_text())
            if "cpu" not in names or "nvic" not in names:
                raise CommandError(f"There was an error executing command '{cmd}'\r\n(fake) no cpu/nvic in {path}")
        else:
            raise CommandError(f"Could not find file '{path}'")
        for name in names:
            kind = {"cpu": "cpu", "nvic": "nvic"}.get(name, "uart" if name.startswith(("usart", "uart")) else "memory")
            machine.peripherals[f"sysbus.{name}"] = kind

    def load_string(self, cmd: str, text: str) -> None:
        machine = self.machine()
        match = re.fullmatch(r'"(\w+): ([\w.]+) @ (\w+)"', text)
        if match is None:
            raise CommandError(f"There was an error executing command '{cmd}'\r\nSyntax error (fake: one entry only)")
        name, kind, parent = match.groups()
        parents = {path.rsplit(".", 1)[-1]: path for path in machine.peripherals}
        if parent not in parents:
            entry = text.strip('"')  # as recorded from 1.16.1 (1d): the parse error, its place and a caret line
            at = entry.rindex(parent)
            raise CommandError(f"There was an error executing command '{cmd}'\r\n"
                               f"Error E20: Undefined register '[ReferenceValue: {parent}]'.\r\nAt 1:{at + 1}:\r\n"
                               f"{entry}\r\n{' ' * at}{'^' * len(parent)}")
        parent_kind = machine.peripherals[parents[parent]]
        accepted = {
            ("UART.SemihostingUart", "cpu"): not HANDLER,  # Arm.cs up to 1.16.1
            ("CPU.SemihostingHandler", "cpu"): HANDLER,  # Arm.cs in master
            ("UART.SemihostingUart", "handler"): HANDLER,  # SemihostingHandler.cs in master
        }
        if kind == "CPU.SemihostingHandler" and not HANDLER:  # recorded from the real 1.16.1 (1d_full_session)
            raise CommandError(
                f"There was an error executing command '{cmd}'\r\n"
                f"Error E04: Could not resolve type: 'CPU.SemihostingHandler'.\r\nAt 1:1:\r\n{text.strip(chr(34))}"
                f"\r\n{'^' * len(text.strip(chr(34)))}"
            )
        if not accepted.get((kind, parent_kind), False):
            raise CommandError(
                f"There was an error executing command '{cmd}'\r\n"
                f"Error E39: '{parent}' does not accept {kind} registration (fake Renode: {VERSION})"
            )
        machine.peripherals[f"{parents[parent]}.{name}"] = "handler" if kind == "CPU.SemihostingHandler" else "uart"

    def load_elf(self, cmd: str, path: Path) -> None:
        machine = self.machine()
        if "silent-load" in BEHAVIOUR:
            time.sleep(3600)
        if self.started:  # SystemBus.LoadELF / FileLoaderExtensions.LoadELF
            raise CommandError(
                f"There was an error executing command '{cmd}'\r\nCannot load ELF on an unpaused machine."
            )
        if not path.is_file():  # recorded (1d), both versions
            raise CommandError(f"There was an error executing command '{cmd}'\r\nFile does not exist: {path}")
        machine.elf = path
        machine.position = 0

    def start(self) -> None:
        if self.started:
            self.write_line("Emulation is already started. Ignoring command")
            return
        marker = RECORD.parent / "died-once"
        if "die-once" in BEHAVIOUR and not marker.exists():
            marker.touch()
            print("fake renode: dying at start", flush=True)
            os._exit(3)
        self.write_line("Starting emulation...")
        self.started = True
        for machine in self.machines.values():  # Emulation.StartAll: every machine
            if machine.elf is not None and not machine.halted:
                record(f"(running) {machine.name}")
                machine.stop = threading.Event()
                machine.thread = threading.Thread(target=machine.run_firmware, daemon=True)
                machine.thread.start()

    def property_or_method(self, cmd: str, words: list[str]) -> None:
        kind = self.peripheral(words[0])
        machine = self.machine()
        member, args = words[1], words[2:]
        if member == "CreateFileBackend" and kind == "uart" and len(args) in (1, 2):
            machine.backends[words[0]] = token_path(args[0])
            machine.backends[words[0]].touch()
        elif member == "VectorTableOffset" and kind == "cpu" and len(args) == 1:
            int(args[0], 0)
        elif member == "IsHalted" and kind == "cpu" and args in (["true"], ["false"]):
            machine.halted = args == ["true"]
        elif member == "PC" and kind == "cpu" and not args:  # a RegisterValue: lower-case hex (recorded "0x800012e")
            self.send("0x0\r\r\n")  # the fake has no program counter; the harness never reads it
        elif member == "IsHalted" and kind == "cpu" and not args:  # a Boolean property: "True\r\r\n" (recorded)
            self.send(f"{machine.halted}\r\r\n")
        elif member == "Frequency" and kind == "nvic" and len(args) == 1:
            machine.systick_hz = int(args[0], 0)
        else:
            raise CommandError(f"There was an error executing command '{cmd}'\r\nNo such member {member} of {kind}")


def main() -> None:
    args = sys.argv[1:]
    if "--port" not in args or "--console" in args or "--disable-xwt" not in args:
        print(f"fake renode: needs --disable-xwt --port N and no --console, got {args}", flush=True)
        sys.exit(2)
    port = int(args[args.index("--port") + 1])
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen(1)
    record(f"(started) {' '.join(args)}")
    conn, _ = server.accept()
    monitor = Monitor(conn, plain="--plain" in args)
    time.sleep(0.002)  # the shell comes up a moment after the port accepts
    conn.setblocking(False)
    try:
        early = conn.recv(65536)  # typed before Renode's first byte
    except BlockingIOError:
        early = b""
    conn.setblocking(True)
    if early:
        record(f"(typed before the telnet options) {early!r}")
    conn.sendall(IAC_NEGOTIATION)
    if WAITS_FOR_REPLIES:  # 1.14-1.15: the first 9 client bytes are read as telnet replies, then the banner
        pending = early
        while len(pending) < 9:
            data = conn.recv(9 - len(pending))
            if not data:
                return
            pending += data
        if pending[:9] != bytes([255, 251, 0, 255, 253, 1, 255, 253, 3]):
            record(f"(swallowed as telnet replies) {pending[:9]!r}")
    if "slow-start" in BEHAVIOUR:
        time.sleep(1.5)
    monitor.send(VERSION + "\n\r\n\r")  # the banner as recorded: version line, two newlines
    monitor.prompt()
    stray = "stray-prompt" in BEHAVIOUR
    line = ""
    while True:
        data = conn.recv(4096)
        if not data:
            return
        if data.startswith(b"\xff"):  # a read starting with IAC loses one IAC command, 3 bytes (renode-infrastructure
            data = data[3:]  # add012af src/Emulator/Main/Utilities/SocketServerProvider.cs:182-215); the rest is input
        # What is left of telnet replies (IAC, option codes) makes no output and no character of the line: recorded
        # from 1.16.1 (1b: the 9 replies sent late, then `version` answered normally).
        data = bytes(b for b in data if b < 0xF8 and (b >= 0x20 or b in b"\r\n\t"))
        if not data:
            continue
        if stray:  # an Enter handled before this input: one more prompt ahead of its echo
            stray = False
            time.sleep(0.5)
            monitor.send("\n\r")
            monitor.prompt()
        for char in data.decode():
            if char not in "\r\n":
                line += char
                monitor.send(char)  # CommandLine.HandleCharacter: one echo per character
                continue
            cmd, line = line, ""
            monitor.send("\n\r")  # NavigableTerminalEmulator.NewLine
            if cmd.strip():
                record(cmd)
                if cmd == "quit":  # recorded (1d): the farewell, then the connection closes
                    monitor.write_line("Renode is quitting")
                    conn.close()
                    return
                try:
                    monitor.handle(cmd)
                except CommandError as error:
                    monitor.write_error(str(error))
            monitor.prompt()


if __name__ == "__main__":
    main()
