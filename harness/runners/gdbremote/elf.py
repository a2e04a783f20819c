"""What the debug backends need from a firmware ELF: load segments, vector table, symbols, BKPT sites."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from elftools.common.exceptions import ELFError
from elftools.elf.constants import SH_FLAGS
from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

from harness.runners.gdbremote.target import BKPT_SEMIHOST


class FirmwareError(Exception):
    """The ELF cannot be used, with the fix in the message."""


@dataclass
class Firmware:
    path: Path
    segments: list[tuple[int, bytes]]  # (load address, bytes) of every PT_LOAD with file data
    vector_table: int  # lowest load address of code: where the reset SP/PC live
    semihost_sites: list[int]  # addresses of "bkpt 0xab" instructions in executable sections
    symbols: dict[str, int]

    def contains(self, text: bytes) -> bool:
        """True if ``text`` is in the loadable image (e.g. the start handshake marker)."""
        return any(text in data for _, data in self.segments)


def load_firmware(path: Path) -> Firmware:
    path = Path(path)
    if not path.is_file():
        raise FirmwareError(
            f"firmware {path} does not exist; build it first (make -C micro_runtime TARGET=<board> ...)"
        )
    try:
        with path.open("rb") as handle:
            elf = ELFFile(handle)
            if elf["e_machine"] != "EM_ARM":
                machine = elf["e_machine"]
                raise FirmwareError(f"{path} is not an Arm ELF (machine {machine}); build it for a Cortex-M board")
            segments = []
            for segment in elf.iter_segments():
                if segment["p_type"] == "PT_LOAD" and segment["p_filesz"] > 0:
                    segments.append((int(segment["p_paddr"]), segment.data()[: segment["p_filesz"]]))
            sites: list[int] = []
            for section in elf.iter_sections():
                if not section["sh_flags"] & SH_FLAGS.SHF_EXECINSTR or section["sh_type"] != "SHT_PROGBITS":
                    continue
                data = section.data()
                base = int(section["sh_addr"])
                start = base & 1  # instructions are halfword aligned
                for offset in range(start, len(data) - 1, 2):
                    if data[offset] | (data[offset + 1] << 8) == BKPT_SEMIHOST:
                        sites.append(base + offset)
            symbols: dict[str, int] = {}
            table = elf.get_section_by_name(".symtab")
            if isinstance(table, SymbolTableSection):
                for symbol in table.iter_symbols():
                    if symbol.name and symbol["st_info"]["type"] in ("STT_OBJECT", "STT_FUNC", "STT_NOTYPE"):
                        symbols.setdefault(symbol.name, int(symbol["st_value"]))
    except (ELFError, OSError) as error:
        raise FirmwareError(f"{path} is not a readable ELF file ({error}); rebuild it") from error
    if not segments:
        raise FirmwareError(f"{path} has no loadable segments; check the board's linker script")
    vector_table = symbols.get("g_pfnVectors", symbols.get("__isr_vector", symbols.get("vectors", -1)))
    if vector_table < 0:
        vector_table = min(address for address, _ in segments)
    return Firmware(path, segments, vector_table, sites, symbols)
