#include "tb/tests/ftl_store/fake_flash.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "tb/tests/ftl_store/hal_stubs.h"

namespace ssdvp::test {

FakeFlash *FakeFlash::live_ = nullptr;

namespace {

FakeFlash &fake_of(const flash_layer_t *flash) {
  FakeFlash *fake = FakeFlash::live();
  if (fake == nullptr || fake->layer() != flash) {
    throw std::logic_error("flash.h called on a layer that is not the live FakeFlash");
  }
  return *fake;
}

}  // namespace

FakeFlash::FakeFlash(const nand_geometry_t &geometry, const block_manager_t *blocks,
                     uint32_t op_count, arena_t *arena) {
  if (live_ != nullptr) {
    throw std::logic_error("one FakeFlash at a time");
  }
  live_ = this;
  if (!flash_init(layer_, &geometry, blocks, op_count, arena)) {
    live_ = nullptr;
    throw std::runtime_error("the flash records do not fit in the arena");
  }
}

FakeFlash::FakeFlash(const nand_geometry_t &geometry) : bound_(false) {
  if (live_ != nullptr) {
    throw std::logic_error("one FakeFlash at a time");
  }
  live_ = this;
  own_layer_.geometry = geometry;
}

FakeFlash::~FakeFlash() { live_ = nullptr; }

bool FakeFlash::bind(flash_layer_t *layer) {
  if (bound_) {
    return layer == layer_;
  }
  layer_ = layer;
  bound_ = true;
  return true;
}

bool FakeFlash::init(const nand_geometry_t *geometry, const block_manager_t *blocks,
                     uint32_t op_count, arena_t *arena) {
  layer_->geometry = *geometry;
  layer_->blocks = blocks;
  layer_->io_per_op = geometry->bits_per_cell * geometry->planes;
  layer_->oob_words = (geometry->oob_bytes + 3u) / 4u;
  layer_->op_count = op_count;
  layer_->ops = (flash_op_t *)arena_alloc(arena, "flash_ops", op_count * sizeof(flash_op_t));
  nfc_io_t *io = (nfc_io_t *)arena_alloc(arena, "flash_io_lists",
                                         op_count * layer_->io_per_op * sizeof(nfc_io_t));
  uint32_t *oob = (uint32_t *)arena_alloc(
      arena, "flash_oob", op_count * layer_->io_per_op * layer_->oob_words * sizeof(uint32_t));
  if (layer_->ops == nullptr || io == nullptr || oob == nullptr) {
    return false;
  }
  layer_->free_ops = nullptr;
  for (uint32_t i = op_count; i-- > 0;) {
    flash_op_t *op = &layer_->ops[i];
    op->io = io + i * layer_->io_per_op;
    op->oob = oob + i * layer_->io_per_op * layer_->oob_words;
    op->next_free = layer_->free_ops;
    layer_->free_ops = op;
  }
  layer_->free_count = op_count;
  layer_->free_page_count = 0; // every record holds a wordline: programs and reads share them
  targets_.assign(op_count, std::vector<IoTarget>(layer_->io_per_op));
  busy_.assign(op_count, false);
  return true;
}

flash_op_t *FakeFlash::take(flash_done_fn done, void *owner) {
  flash_op_t *op = layer_->free_ops;
  if (op == nullptr) {
    return nullptr;
  }
  layer_->free_ops = op->next_free;
  --layer_->free_count;
  op->done = done;
  op->owner = owner;
  op->user = 0;
  std::memset(op->io, 0, layer_->io_per_op * sizeof(nfc_io_t));
  std::fill(targets_[op_index(op)].begin(), targets_[op_index(op)].end(),
            IoTarget{nullptr, nullptr, 0});
  return op;
}

void FakeFlash::point_io(flash_op_t *op, uint32_t i, void *buffer, bool with_oob,
                         uint32_t meta_bytes) {
  if (i >= layer_->io_per_op) {
    ADD_FAILURE() << "io entry " << i << " beyond the record's " << layer_->io_per_op;
    return;
  }
  op->io[i].buffer = (uint32_t)(uintptr_t)buffer;
  op->io[i].oob = with_oob ? (uint32_t)(uintptr_t)flash_oob(layer_, op, i) : 0u;
  op->io[i].meta_bytes = meta_bytes;
  uint32_t bytes = meta_bytes != 0 ? meta_bytes : layer_->geometry.page_bytes;
  targets_[op_index(op)][i] = IoTarget{buffer, with_oob ? flash_oob(layer_, op, i) : nullptr,
                                       bytes};
}

bool FakeFlash::check_address(uint32_t ppn, uint32_t planes) const {
  const nand_geometry_t &g = layer_->geometry;
  uint64_t total = (uint64_t)g.channels * g.ways * g.dies * g.planes * g.blocks * g.pages;
  uint32_t plane = (ppn / plane_stride()) % g.planes;
  if (ppn >= total || planes == 0 || plane + planes > g.planes) {
    ADD_FAILURE() << "flash operation at PPN " << ppn << " on " << planes
                  << " planes is beyond the geometry";
    return false;
  }
  return true;
}

void FakeFlash::submit(flash_op_t *op, uint32_t kind, uint32_t vpn, uint32_t planes) {
  submit_at(op, kind, vpn, block_vpn_to_ppn(layer_->blocks, vpn), planes);
}

void FakeFlash::submit_ppn(flash_op_t *op, uint32_t kind, uint32_t ppn, uint32_t planes) {
  submit_at(op, kind, BLOCK_NONE, ppn, planes);
}

void FakeFlash::submit_at(flash_op_t *op, uint32_t kind, uint32_t vpn, uint32_t ppn,
                          uint32_t planes) {
  uint32_t index = op_index(op);
  if (index >= layer_->op_count || busy_[index]) {
    throw std::logic_error("submitting a record that is not taken or already in flight");
  }
  op->vpn = vpn;
  op->planes = planes;
  FakeFlashOp pending{op, kind, vpn, ppn, planes, {}, {}};
  if (kind == NFC_OP_PROGRAM) {
    // The NFC may move the data at any time before the completion: take it now, and check at
    // the completion that the buffers did not change meanwhile.
    for (uint32_t i = 0; i < planes * layer_->geometry.bits_per_cell; ++i) {
      const IoTarget &target = targets_[index][i];
      std::vector<uint32_t> words(page_words(), 0xFFFFFFFFu);
      if (target.buffer != nullptr) {
        std::memcpy(words.data(), target.buffer, std::min(target.bytes, page_words() * 4u));
      }
      std::vector<uint32_t> oob(layer_->oob_words, 0xFFFFFFFFu);
      if (target.oob != nullptr) {
        std::copy(target.oob, target.oob + layer_->oob_words, oob.begin());
      }
      pending.data.push_back(std::move(words));
      pending.oob.push_back(std::move(oob));
    }
  }
  // A die runs its operations in submission order, so the wordline order of a block is the
  // order of submission, whatever order the test completes them in.
  const nand_geometry_t &g = layer_->geometry;
  for (uint32_t plane = 0; kind != NFC_OP_READ && plane < planes; ++plane) {
    uint32_t first = pending.ppn + plane * plane_stride();
    if (kind == NFC_OP_ERASE) {
      next_wordline_.erase(block_key(first));
      continue;
    }
    uint32_t &next = next_wordline_[block_key(first)];
    uint32_t wordline = first % g.pages / g.bits_per_cell;
    if (wordline != next) {
      ADD_FAILURE() << "program of wordline " << wordline << " at PPN " << first
                    << " while the block's next wordline is " << next;
    }
    next = wordline + 1u;
  }
  busy_[index] = true;
  in_flight_.push_back(std::move(pending));
}

uint32_t FakeFlash::read(const FakeFlashOp &pending) {
  ++reads_;
  uint32_t status = NFC_STATUS_OK;
  if (!check_address(pending.ppn, pending.planes)) {
    return NFC_STATUS_ECC_FAIL;
  }
  for (uint32_t plane = 0; plane < pending.planes; ++plane) {
    uint32_t ppn = pending.ppn + plane * plane_stride();
    const IoTarget &target = targets_[op_index(pending.op)][plane];
    std::vector<uint32_t> words(page_words(), 0xFFFFFFFFu);
    std::vector<uint32_t> oob(layer_->oob_words, 0xFFFFFFFFu);
    auto found = pages_.find(ppn);
    if (found == pages_.end()) {
      status = std::max<uint32_t>(status, NFC_STATUS_ERASED);
    } else if (found->second.failed) {
      status = std::max<uint32_t>(status, NFC_STATUS_ECC_FAIL);
      std::fill(words.begin(), words.end(), 0xDEADBEEFu);
    } else {
      words = found->second.data;
      oob = found->second.oob;
    }
    if (target.buffer != nullptr) {
      std::memcpy(target.buffer, words.data(), std::min(target.bytes, page_words() * 4u));
    }
    if (target.oob != nullptr) {
      std::copy(oob.begin(), oob.end(), target.oob);
    }
  }
  return status;
}

uint32_t FakeFlash::program(const FakeFlashOp &pending) {
  ++programs_;
  const nand_geometry_t &g = layer_->geometry;
  if (!check_address(pending.ppn, pending.planes)) {
    return NFC_STATUS_PROGRAM_FAIL;
  }
  if (pending.ppn % g.bits_per_cell != 0) {
    ADD_FAILURE() << "program at PPN " << pending.ppn << ", not the first page of a wordline";
    return NFC_STATUS_PROGRAM_FAIL;
  }
  bool fail = programs_to_fail_ != 0;
  if (fail) {
    --programs_to_fail_;
  }
  uint32_t index = op_index(pending.op);
  for (uint32_t plane = 0; plane < pending.planes; ++plane) {
    uint32_t first = pending.ppn + plane * plane_stride();
    for (uint32_t type = 0; type < g.bits_per_cell; ++type) {
      uint32_t ppn = first + type;
      uint32_t i = plane * g.bits_per_cell + type;
      if (pages_.count(ppn) != 0) {
        ADD_FAILURE() << "program of PPN " << ppn << ", which is not erased";
      }
      const IoTarget &target = targets_[index][i];
      if (target.buffer != nullptr &&
          std::memcmp(target.buffer, pending.data[i].data(),
                      std::min(target.bytes, page_words() * 4u)) != 0) {
        ADD_FAILURE() << "the buffer of PPN " << ppn << " changed while its program was in flight";
      }
      pages_[ppn] = Page{fail, pending.data[i], pending.oob[i]};
    }
  }
  return fail ? NFC_STATUS_PROGRAM_FAIL : NFC_STATUS_OK;
}

void FakeFlash::erase(const FakeFlashOp &pending) {
  ++erases_;
  if (!check_address(pending.ppn, pending.planes)) {
    return;
  }
  for (uint32_t plane = 0; plane < pending.planes; ++plane) {
    uint32_t first = pending.ppn + plane * plane_stride();
    first -= first % layer_->geometry.pages;
    for (uint32_t page = 0; page < layer_->geometry.pages; ++page) {
      pages_.erase(first + page);
    }
  }
}

uint32_t FakeFlash::complete(size_t index) {
  if (index >= in_flight_.size()) {
    throw std::out_of_range("no such flash operation in flight");
  }
  FakeFlashOp pending = std::move(in_flight_[index]);
  in_flight_.erase(in_flight_.begin() + (std::ptrdiff_t)index);
  uint32_t status = NFC_STATUS_OK;
  switch (pending.kind) {
  case NFC_OP_READ:
    status = read(pending);
    break;
  case NFC_OP_PROGRAM:
    status = program(pending);
    break;
  default:
    erase(pending);
    break;
  }
  nfc_completion_t completion{};
  completion.id = op_index(pending.op);
  completion.status = (uint16_t)status;
  queue_.push_back(completion);
  return status;
}

void FakeFlash::complete_all() {
  while (!in_flight_.empty()) {
    complete(0);
  }
}

void FakeFlash::interrupt(const FakeFlashOp &pending) {
  const nand_geometry_t &g = layer_->geometry;
  for (uint32_t plane = 0; plane < pending.planes; ++plane) {
    uint32_t first = pending.ppn + plane * plane_stride();
    uint32_t count = g.bits_per_cell;
    if (pending.kind == NFC_OP_ERASE) {
      first -= first % g.pages;
      count = g.pages;
    }
    for (uint32_t page = 0; page < count; ++page) {
      pages_[first + page] = Page{true, {}, {}};
    }
  }
}

uint32_t FakeFlash::power_cut(bool interrupt_running) {
  uint32_t interrupted = 0;
  std::vector<bool> die_busy;
  for (const FakeFlashOp &pending : in_flight_) {
    if (!interrupt_running || pending.kind == NFC_OP_READ) {
      continue;
    }
    uint32_t die = die_of(pending.ppn);
    if (die >= die_busy.size()) {
      die_busy.resize(die + 1u, false);
    }
    if (!die_busy[die]) {
      die_busy[die] = true;
      interrupt(pending);
      ++interrupted;
    }
  }
  in_flight_.clear();
  queue_.clear();
  std::fill(busy_.begin(), busy_.end(), false);
  // The blocks' next wordlines are what the array holds: programs dropped took none.
  next_wordline_.clear();
  const nand_geometry_t &g = layer_->geometry;
  for (const auto &[ppn, page] : pages_) {
    uint32_t &next = next_wordline_[block_key(ppn)];
    next = std::max(next, ppn % g.pages / g.bits_per_cell + 1u);
  }
  return interrupted;
}

void FakeFlash::wait_for_interrupt() {
  ++interrupt_waits_;
  if (in_flight_.empty()) {
    throw FirmwareFault("WFI with no flash operation in flight: the core would sleep forever");
  }
  if (wait_) {
    wait_(*this);
  } else {
    complete(0);
  }
}

void FakeFlash::run(const nfc_completion_t &completion) {
  flash_op_t *op = &layer_->ops[completion.id];
  op->done(op, completion.status);
  busy_[completion.id] = false;
  op->next_free = layer_->free_ops;
  layer_->free_ops = op;
  ++layer_->free_count;
}

uint32_t FakeFlash::drain() {
  uint32_t drained = 0;
  while (!queue_.empty()) {
    nfc_completion_t completion = queue_.front();
    queue_.pop_front();
    run(completion);
    ++drained;
  }
  return drained;
}

std::vector<uint32_t> FakeFlash::data(uint32_t vpn) const {
  auto found = pages_.find(block_vpn_to_ppn(layer_->blocks, vpn));
  return found == pages_.end() ? std::vector<uint32_t>(page_words(), 0xFFFFFFFFu)
                               : found->second.data;
}

std::vector<uint32_t> FakeFlash::oob(uint32_t vpn) const {
  auto found = pages_.find(block_vpn_to_ppn(layer_->blocks, vpn));
  return found == pages_.end() ? std::vector<uint32_t>(layer_->oob_words, 0xFFFFFFFFu)
                               : found->second.oob;
}

}  // namespace ssdvp::test

using ssdvp::test::fake_of;

extern "C" {

bool flash_init(flash_layer_t *flash, const nand_geometry_t *geometry,
                const block_manager_t *blocks, uint32_t op_count, arena_t *arena) {
  if (ssdvp::test::FakeFlash::live() != nullptr) {
    ssdvp::test::FakeFlash::live()->bind(flash);
  }
  return fake_of(flash).init(geometry, blocks, op_count, arena);
}

// Every fake record can hold a wordline, so how many may program makes no difference here.
bool flash_init_records(flash_layer_t *flash, const nand_geometry_t *geometry,
                        const block_manager_t *blocks, uint32_t op_count, uint32_t program_count,
                        arena_t *arena) {
  (void)program_count;
  return flash_init(flash, geometry, blocks, op_count, arena);
}

flash_op_t *flash_op_take(flash_layer_t *flash, flash_done_fn done, void *owner) {
  return fake_of(flash).take(done, owner);
}

flash_op_t *flash_op_take_program(flash_layer_t *flash, flash_done_fn done, void *owner) {
  return fake_of(flash).take(done, owner);
}

void flash_io_user(const flash_layer_t *flash, flash_op_t *op, uint32_t i, void *slot,
                   bool with_oob) {
  fake_of(flash).point_io(op, i, slot, with_oob, 0);
}

void flash_io_oob(const flash_layer_t *flash, flash_op_t *op, uint32_t i) {
  fake_of(flash).point_io(op, i, nullptr, true, 0);
}

void flash_io_meta(const flash_layer_t *flash, flash_op_t *op, uint32_t i, void *page) {
  fake_of(flash).point_io(op, i, page, true, flash->geometry.page_bytes);
}

void flash_read(flash_layer_t *flash, flash_op_t *op, uint32_t vpn, uint32_t planes) {
  fake_of(flash).submit(op, NFC_OP_READ, vpn, planes);
}

void flash_submit_program(flash_layer_t *flash, flash_op_t *op, uint32_t vpn, uint32_t planes) {
  fake_of(flash).submit(op, NFC_OP_PROGRAM, vpn, planes);
}

void flash_erase(flash_layer_t *flash, flash_op_t *op, uint32_t vpn, uint32_t planes) {
  fake_of(flash).submit(op, NFC_OP_ERASE, vpn, planes);
}

void flash_read_ppn(flash_layer_t *flash, flash_op_t *op, uint32_t ppn, uint32_t planes) {
  fake_of(flash).submit_ppn(op, NFC_OP_READ, ppn, planes);
}

void flash_erase_ppn(flash_layer_t *flash, flash_op_t *op, uint32_t ppn, uint32_t planes) {
  fake_of(flash).submit_ppn(op, NFC_OP_ERASE, ppn, planes);
}

uint32_t flash_drain(flash_layer_t *flash) { return fake_of(flash).drain(); }

bool flash_completion_waiting(const flash_layer_t *flash) {
  return fake_of(flash).completion_waiting();
}

}  // extern "C"
