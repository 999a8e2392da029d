// Host stand-ins for the HAL functions firmware modules call (hal/console.h, hal/system.h):
// fw_printf prints to a string the test can read, system_fault throws FirmwareFault.
#ifndef SSDVP_TB_TESTS_FTL_STORE_HAL_STUBS_H
#define SSDVP_TB_TESTS_FTL_STORE_HAL_STUBS_H

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace ssdvp::test {

// What system_fault throws; what() is what the firmware printed before the fault.
struct FirmwareFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Everything fw_printf printed since the last call.
std::string take_console();

// Whether irq_enable / irq_disable and irq_save_disable / irq_restore left interrupts enabled.
bool interrupts_enabled();

// What WFI does instead of letting the live FakeFlash complete an operation (an empty function:
// the default again). A test harness that runs the main loop decides there what happens next.
void set_wait_for_interrupt(std::function<void()> wait);

// What irq_poll does (nothing by default: the fakes queue their completions where the firmware
// looks). A harness running the main loop counts its turns there.
void set_interrupt_poll(std::function<void()> poll);

}  // namespace ssdvp::test

#endif
