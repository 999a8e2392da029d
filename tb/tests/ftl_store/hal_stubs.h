// Host stand-ins for the HAL functions firmware modules call (hal/console.h, hal/irq.h,
// hal/system.h, and WFI from host/hal/csr.h): fw_printf prints to a string the test can read,
// system_fault throws FirmwareFault, WFI lets the live FakeFlash complete an operation.
#ifndef SSDVP_TB_TESTS_FTL_STORE_HAL_STUBS_H
#define SSDVP_TB_TESTS_FTL_STORE_HAL_STUBS_H

#include <stdexcept>
#include <string>

namespace ssdvp::test {

// What system_fault throws; what() is what the firmware printed before the fault.
struct FirmwareFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Everything fw_printf printed since the last call.
std::string take_console();

// Whether irq_save_disable / irq_restore left interrupts enabled.
bool interrupts_enabled();

}  // namespace ssdvp::test

#endif
