/* The RQRMI training configuration the boot config's rqrmi_* fields carry (portable: the mapping
 * schemes and the host tests use it as the firmware does). */
#ifndef SSDVP_FIRMWARE_ML_RQRMI_BOOT_H
#define SSDVP_FIRMWARE_ML_RQRMI_BOOT_H

#include "boot_config.h"
#include "ml/rqrmi_train.h"

rqrmi_train_config_t rqrmi_boot_train_config(const boot_config_t *boot);

#endif
