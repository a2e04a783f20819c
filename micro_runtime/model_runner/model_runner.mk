# Make rules of the model runner and of compiled-in test cases; included by
# micro_runtime/Makefile (after the test rules, whose variables it extends).
#
#   make -C micro_runtime TARGET=bluepill model_runner MODEL=m.tflite CASES=cases.json \
#        [RUNNER_NAME=m] [ARENA_SIZE=bytes] [OPS=model|all]
#                                   -> gen/<TARGET>/bin/model_runner_<RUNNER_NAME>
# OPS=model (default) links only the kernels the model uses; OPS=all links
# AllOpsResolver (every kernel; too big for 64 KB boards).
#   make -C micro_runtime TARGET=host host_file_runner  -> gen/host/bin/host_file_runner
#
# MODEL/CASES may be absolute, relative to the repository root or to
# micro_runtime/. ARENA_SIZE defaults to the board's RAM minus a reserve for
# stack and static data (1 MiB on boards without a RAM size, e.g. host).
#
# Test cases: every X_cases.json beside a test (or in its models/ folder)
# becomes gen/models/micro_runtime/<dir>/X_cases.{h,cc} (g_X_cases,
# g_X_case_count) linked into that test, like X.tflite becomes model data.

CASES_TOOL := $(RUNTIME)/tools/cases_to_cc.py
MR_DIR := $(RUNTIME)/model_runner

$(GEN_ROOT)/models/micro_runtime/%_cases.cc: $(RUNTIME)/%_cases.json $(CASES_TOOL)
	@mkdir -p $(dir $@)
	$(PYTHON) $(CASES_TOOL) $< --out-dir $(dir $@) --name $(notdir $*)

$(GEN_ROOT)/models/micro_runtime/%_cases.h: $(GEN_ROOT)/models/micro_runtime/%_cases.cc
	@test -f $@

# Extends the per-test variables of micro_runtime/Makefile's test_rules: the
# link recipe expands $(<test>_OBJS) when it runs, so appending here is enough.
define mr_test_cases
$(1)_CASES := $$(patsubst $$(RUNTIME)/%_cases.json,$$(GEN_ROOT)/models/micro_runtime/%_cases.cc,$$(wildcard $$($(1)_DIR)*_cases.json $$($(1)_DIR)models/*_cases.json))
ifneq ($$($(1)_CASES),)
$(1)_OBJS += $$(patsubst $$(GEN_ROOT)/%.cc,$$(OBJ_DIR)/gen/%.cc.o,$$($(1)_CASES))
$$(BIN_DIR)/$(1): $$(patsubst $$(GEN_ROOT)/%.cc,$$(OBJ_DIR)/gen/%.cc.o,$$($(1)_CASES))
$$(call obj_of,$$(RUNTIME)/$(2) $$($(1)_EXTRA)): | $$($(1)_CASES) $$($(1)_CASES:.cc=.h)
endif
endef
$(foreach t,$(TEST_SRCS),$(eval $(call mr_test_cases,$(basename $(notdir $(t))),$(t))))

# ------------------------------------------------------ board requirements --
# A test folder may declare in requirements.mk what its tests need, e.g.
#   micro_speech_test_MIN_FLASH := 81920
#   micro_speech_test_MIN_RAM := 16384
# On a board with less ([memory] in board.toml -> BOARD_FLASH_SIZE/RAM_SIZE)
# the test is left out of `all`/`test`/`list_tests` and a note on stderr
# names it and the reason; building it by name still tries (and the link
# reports the overflow).
-include $(sort $(wildcard $(foreach t,$(TEST_SRCS),$(dir $(RUNTIME)/$(t))requirements.mk)))
mr_needs_more = $(if $(and $(filter-out 0,$(BOARD_$(2)_SIZE)),$($(1)_MIN_$(2))),$(shell [ $($(1)_MIN_$(2)) -gt $(BOARD_$(2)_SIZE) ] && echo $(1)))
EXCLUDED_TESTS := $(sort $(foreach t,$(TEST_NAMES),$(call mr_needs_more,$(t),FLASH) $(call mr_needs_more,$(t),RAM)))
ifneq ($(EXCLUDED_TESTS),)
TEST_NAMES := $(filter-out $(EXCLUDED_TESTS),$(TEST_NAMES))
$(foreach t,$(EXCLUDED_TESTS),$(file >>/dev/stderr,note: $(t) is not built for $(TARGET): it declares MIN_FLASH=$(or $($(t)_MIN_FLASH),-) MIN_RAM=$(or $($(t)_MIN_RAM),-) bytes (requirements.mk), the board has flash $(BOARD_FLASH_SIZE) RAM $(BOARD_RAM_SIZE)))
endif

# ------------------------------------------------------------ model runner --
ifneq ($(filter model_runner,$(MAKECMDGOALS)),)
ifeq ($(strip $(MODEL)),)
$(error model_runner needs MODEL=path/to/model.tflite (and CASES=path/to/cases.json))
endif
ifeq ($(strip $(CASES)),)
$(error model_runner needs CASES=path/to/cases.json (inputs, see docs/model_runner.md))
endif
mr_find = $(abspath $(firstword $(wildcard $(1) $(REPO_ROOT)/$(1))))
MR_MODEL := $(call mr_find,$(MODEL))
MR_CASES := $(call mr_find,$(CASES))
ifeq ($(MR_MODEL),)
$(error MODEL=$(MODEL): no such file (paths are absolute or relative to the repository root))
endif
ifeq ($(MR_CASES),)
$(error CASES=$(CASES): no such file (paths are absolute or relative to the repository root))
endif
RUNNER_NAME ?= $(basename $(notdir $(MR_MODEL)))
# Reserve for the stack, .data/.bss of runtime and board, and the vector table.
MODEL_RUNNER_RAM_RESERVE ?= $(shell echo $$(( $(or $(BOARD_STACK_SIZE),4096) + 2048 )))
MR_RAM_SIZE := $(or $(BOARD_RAM_SIZE),0)
ARENA_SIZE ?= $(if $(filter 0,$(MR_RAM_SIZE)),1048576,$(shell echo $$(( $(MR_RAM_SIZE) - $(MODEL_RUNNER_RAM_RESERVE) ))))
OPS ?= model
ifeq ($(filter model all,$(OPS)),)
$(error OPS=$(OPS): use OPS=model (only the model's kernels) or OPS=all (every kernel))
endif
MR_GEN := $(GEN_DIR)/model_runner/$(RUNNER_NAME)
MR_BIN := $(BIN_DIR)/model_runner_$(RUNNER_NAME)
MR_OBJS := $(MR_GEN)/obj/model_runner.o $(MR_GEN)/obj/runner_model_data.o $(MR_GEN)/obj/runner_cases.o

# Rebuild when the same RUNNER_NAME is reused with another model, cases file
# or arena size.
MR_CONFIG := model=$(MR_MODEL) cases=$(MR_CASES) arena=$(ARENA_SIZE) ops=$(OPS)
$(shell mkdir -p $(MR_GEN) && if [ "$$(cat $(MR_GEN)/config 2>/dev/null)" != "$(MR_CONFIG)" ]; then echo "$(MR_CONFIG)" > $(MR_GEN)/config; fi)

$(MR_GEN)/runner_model_data.cc: $(MR_MODEL) $(MODEL_TOOL) $(MR_GEN)/config
	$(PYTHON) $(MODEL_TOOL) $(MR_MODEL) --out-dir $(MR_GEN) --name runner
$(MR_GEN)/runner_cases.cc: $(MR_CASES) $(CASES_TOOL) $(MR_GEN)/config
	$(PYTHON) $(CASES_TOOL) $(MR_CASES) --out-dir $(MR_GEN) --name runner --inputs-only
$(MR_GEN)/runner_ops.h: $(MR_MODEL) $(RUNTIME)/tools/model_ops_to_cc.py $(RUNTIME)/all_ops_resolver.h $(MR_GEN)/config
	$(PYTHON) $(RUNTIME)/tools/model_ops_to_cc.py $(MR_MODEL) --out $@ --allow-bad-model
$(MR_GEN)/obj/%.o: $(MR_GEN)/%.cc | $(SCHEMA_HEADER) $(FB_INCLUDE)/flatbuffers
	@mkdir -p $(dir $@)
	$(BOARD_CXX) $(CXXFLAGS) $(INCLUDES) -I$(MR_GEN) -c $< -o $@
$(MR_GEN)/obj/model_runner.o: $(MR_DIR)/model_runner.cc $(MR_GEN)/config $(MR_GEN)/runner_model_data.cc \
                              $(MR_GEN)/runner_cases.cc $(MR_GEN)/runner_ops.h | $(SCHEMA_HEADER) $(FB_INCLUDE)/flatbuffers
	@mkdir -p $(dir $@)
	$(BOARD_CXX) $(CXXFLAGS) $(INCLUDES) -I$(MR_GEN) -DMODEL_RUNNER_ARENA_SIZE=$(ARENA_SIZE) \
	  $(if $(filter all,$(OPS)),-DMODEL_RUNNER_ALL_OPS) -c $< -o $@
$(MR_BIN): $(MR_OBJS) $(LIB) $(call obj_of,$(BOARD_SRCS)) $(BOARD_LINK_DEPS)
	@mkdir -p $(dir $@)
	$(BOARD_CXX) $(MR_OBJS) $(call obj_of,$(BOARD_SRCS)) $(LIB) $(LDFLAGS) -Wl,-Map=$@.map $(BOARD_LIBS) -o $@
	@echo "model_runner: built $@ (arena $(ARENA_SIZE) bytes)"
model_runner: $(MR_BIN)
-include $(MR_GEN)/obj/model_runner.d
endif
.PHONY: model_runner

# --------------------------------------------------------- host file runner --
# Host-only tool: reads the model and input tensors from files at run time,
# so differential tests and benchmarks need no rebuild per model.
HFR_OBJ := $(call obj_of,$(MR_DIR)/host_file_runner.cc)
ifeq ($(TARGET),host)
$(BIN_DIR)/host_file_runner: $(HFR_OBJ) $(LIB) $(call obj_of,$(BOARD_SRCS))
	@mkdir -p $(dir $@)
	$(BOARD_CXX) $(HFR_OBJ) $(call obj_of,$(BOARD_SRCS)) $(LIB) $(LDFLAGS) $(BOARD_LIBS) -o $@
host_file_runner: $(BIN_DIR)/host_file_runner
else
host_file_runner:
	@echo "error: host_file_runner reads files and only builds for TARGET=host" >&2; exit 1
endif
.PHONY: host_file_runner

# ------------------------------------------------------------ example apps --
# examples/<name>/app/main.cc + the example's other .cc files + its model
# and case data -> gen/<TARGET>/bin/example_<name>:
#   make -C micro_runtime TARGET=bluepill example_hello_world
#   make -C micro_runtime TARGET=host run_example_micro_speech
EXAMPLE_APPS := $(patsubst $(RUNTIME)/examples/%/app/main.cc,%,$(wildcard $(RUNTIME)/examples/*/app/main.cc))
define example_app
$(1)_APP_SRCS := $$(call specialize,$$(filter-out %_test.cc,$$(wildcard $$(RUNTIME)/examples/$(1)/*.cc $$(RUNTIME)/examples/$(1)/app/*.cc)))
$(1)_APP_GEN := $$(patsubst $$(RUNTIME)/%.tflite,$$(GEN_ROOT)/models/micro_runtime/%_model_data.cc,$$(wildcard $$(RUNTIME)/examples/$(1)/models/*.tflite)) \
  $$(patsubst $$(RUNTIME)/%_cases.json,$$(GEN_ROOT)/models/micro_runtime/%_cases.cc,$$(wildcard $$(RUNTIME)/examples/$(1)/models/*_cases.json))
$(1)_APP_OBJS := $$(call obj_of,$$($(1)_APP_SRCS)) $$(patsubst $$(GEN_ROOT)/%.cc,$$(OBJ_DIR)/gen/%.cc.o,$$($(1)_APP_GEN))
$$(call obj_of,$$($(1)_APP_SRCS)): | $$($(1)_APP_GEN) $$($(1)_APP_GEN:.cc=.h)
$$(BIN_DIR)/example_$(1): $$($(1)_APP_OBJS) $$(LIB) $$(call obj_of,$$(BOARD_SRCS)) $$(BOARD_LINK_DEPS)
	@mkdir -p $$(dir $$@)
	$$(BOARD_CXX) $$($(1)_APP_OBJS) $$(call obj_of,$$(BOARD_SRCS)) $$(LIB) $$(LDFLAGS) -Wl,-Map=$$@.map $$(BOARD_LIBS) -o $$@
example_$(1): $$(BIN_DIR)/example_$(1)
run_example_$(1): $$(BIN_DIR)/example_$(1)
	PYTHONPATH=$$(REPO_ROOT) $$(PYTHON) -m harness.cli.run_model --app $$(BIN_DIR)/example_$(1) --board $$(TARGET)
.PHONY: example_$(1) run_example_$(1)
endef
$(foreach e,$(EXAMPLE_APPS),$(eval $(call example_app,$(e))))
examples: $(addprefix example_,$(EXAMPLE_APPS))
.PHONY: examples
