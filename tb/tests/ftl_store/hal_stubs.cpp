#include "tb/tests/ftl_store/hal_stubs.h"

#include <cstdarg>
#include <cstdio>

#include "tb/tests/ftl_store/fake_flash.h"

extern "C" {
#include "hal/console.h"
#include "hal/irq.h"
#include "hal/system.h"
}

namespace {

std::string console;
bool interrupts_on = true;
std::function<void()> wait_hook;
std::function<void()> poll_hook;

}  // namespace

namespace ssdvp::test {

std::string take_console() {
  std::string text;
  text.swap(console);
  return text;
}

bool interrupts_enabled() { return interrupts_on; }

void set_wait_for_interrupt(std::function<void()> wait) { wait_hook = std::move(wait); }

void set_interrupt_poll(std::function<void()> poll) { poll_hook = std::move(poll); }

}  // namespace ssdvp::test

extern "C" {

int fw_printf(const char *format, ...) {
  char line[512];
  va_list args;
  va_start(args, format);
  int length = std::vsnprintf(line, sizeof line, format, args);
  va_end(args);
  console += line;
  return length;
}

void system_fault(void) { throw ssdvp::test::FirmwareFault(console); }

uint32_t irq_save_disable(void) {
  uint32_t saved = interrupts_on ? 1u : 0u;
  interrupts_on = false;
  return saved;
}

void irq_restore(uint32_t saved) {
  interrupts_on = saved != 0;
}

void irq_enable(void) { interrupts_on = true; }

void irq_disable(void) { interrupts_on = false; }

// The fake flash queues its completions where flash_drain finds them: no handler to run.
void irq_poll(void) {
  if (poll_hook) {
    poll_hook();
  }
}

void cpu_wait_for_interrupt(void) {
  if (wait_hook) {
    wait_hook();
    return;
  }
  if (ssdvp::test::FakeFlash::live() == nullptr) {
    throw ssdvp::test::FirmwareFault("WFI with no flash: nothing would wake the core");
  }
  ssdvp::test::FakeFlash::live()->wait_for_interrupt();
}

}  // extern "C"
