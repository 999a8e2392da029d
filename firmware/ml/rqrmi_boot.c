#include "ml/rqrmi_boot.h"

rqrmi_train_config_t rqrmi_boot_train_config(const boot_config_t *boot) {
  rqrmi_train_config_t config = {0};
  config.stage_width[0] = 1;
  config.stage_count = 1;
  const uint32_t widths[3] = {boot->rqrmi_stage1_width, boot->rqrmi_stage2_width,
                              boot->rqrmi_stage3_width};
  for (uint32_t s = 0; s < 3 && widths[s] != 0; ++s) {
    config.stage_width[s + 1] = widths[s];
    config.stage_count = s + 2;
  }
  config.samples = boot->rqrmi_samples;
  config.error_target = boot->rqrmi_error_target;
  config.max_model_bytes = boot->rqrmi_max_model_bytes;
  config.max_rounds = boot->rqrmi_max_rounds;
  return config;
}
