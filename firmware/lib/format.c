#include "lib/format.h"

#include <stdbool.h>
#include <stdint.h>

enum format_flag {
  FLAG_LEFT = 1u << 0,  /* '-' */
  FLAG_ZERO = 1u << 1,  /* '0' */
  FLAG_PLUS = 1u << 2,  /* '+' */
  FLAG_SPACE = 1u << 3, /* ' ' */
  FLAG_ALT = 1u << 4,   /* '#' */
};

enum format_length {
  LENGTH_DEFAULT,
  LENGTH_CHAR,      /* hh */
  LENGTH_SHORT,     /* h */
  LENGTH_LONG,      /* l */
  LENGTH_LONG_LONG, /* ll */
  LENGTH_SIZE,      /* z */
  LENGTH_INTMAX,    /* j */
  LENGTH_PTRDIFF,   /* t */
};

#define NO_PRECISION (-1)

struct format_spec {
  unsigned flags;
  int width;
  int precision;
  enum format_length length;
  char conversion;
};

struct format_output {
  format_sink_t sink;
  void *context;
  int count;
};

static void emit(struct format_output *out, char c) {
  out->sink(out->context, c);
  out->count++;
}

static void emit_repeated(struct format_output *out, char c, int times) {
  for (int i = 0; i < times; i++) {
    emit(out, c);
  }
}

static void emit_padded_text(struct format_output *out, const struct format_spec *spec,
                             const char *text, int length) {
  int padding = spec->width > length ? spec->width - length : 0;
  if (!(spec->flags & FLAG_LEFT)) {
    emit_repeated(out, ' ', padding);
  }
  for (int i = 0; i < length; i++) {
    emit(out, text[i]);
  }
  if (spec->flags & FLAG_LEFT) {
    emit_repeated(out, ' ', padding);
  }
}

static void emit_integer(struct format_output *out, const struct format_spec *spec,
                         uintmax_t magnitude, bool negative) {
  char conversion = spec->conversion;
  bool is_signed = conversion == 'd' || conversion == 'i';
  unsigned base = 10;
  if (conversion == 'x' || conversion == 'X' || conversion == 'p') {
    base = 16;
  } else if (conversion == 'o') {
    base = 8;
  }
  const char *alphabet = conversion == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";

  /* Least significant digit first. 22 octal digits hold 64 bits. */
  char digits[24];
  int digit_count = 0;
  bool zero_value = magnitude == 0;
  if (!(zero_value && spec->precision == 0)) {
    do {
      digits[digit_count++] = alphabet[magnitude % base];
      magnitude /= base;
    } while (magnitude != 0);
  }

  char sign = 0;
  if (is_signed) {
    if (negative) {
      sign = '-';
    } else if (spec->flags & FLAG_PLUS) {
      sign = '+';
    } else if (spec->flags & FLAG_SPACE) {
      sign = ' ';
    }
  }

  const char *prefix = "";
  if (conversion == 'p' || (base == 16 && (spec->flags & FLAG_ALT) && !zero_value)) {
    prefix = conversion == 'X' ? "0X" : "0x";
  }
  int prefix_length = prefix[0] == 0 ? 0 : 2;

  int zeros = spec->precision > digit_count ? spec->precision - digit_count : 0;
  /* '#' with %o: the first digit printed must be 0. */
  if (conversion == 'o' && (spec->flags & FLAG_ALT) && zeros == 0 &&
      (digit_count == 0 || digits[digit_count - 1] != '0')) {
    zeros = 1;
  }

  int length = (sign ? 1 : 0) + prefix_length + zeros + digit_count;
  int padding = spec->width > length ? spec->width - length : 0;
  /* '0' pads with zeros after the sign and prefix, unless a precision or '-' is given. */
  if ((spec->flags & FLAG_ZERO) && !(spec->flags & FLAG_LEFT) &&
      spec->precision == NO_PRECISION) {
    zeros += padding;
    padding = 0;
  }

  if (!(spec->flags & FLAG_LEFT)) {
    emit_repeated(out, ' ', padding);
  }
  if (sign) {
    emit(out, sign);
  }
  for (int i = 0; i < prefix_length; i++) {
    emit(out, prefix[i]);
  }
  emit_repeated(out, '0', zeros);
  while (digit_count > 0) {
    emit(out, digits[--digit_count]);
  }
  if (spec->flags & FLAG_LEFT) {
    emit_repeated(out, ' ', padding);
  }
}

static intmax_t fetch_signed(enum format_length length, va_list *args) {
  switch (length) {
    case LENGTH_CHAR:
      return (signed char)va_arg(*args, int);
    case LENGTH_SHORT:
      return (short)va_arg(*args, int);
    case LENGTH_LONG:
      return va_arg(*args, long);
    case LENGTH_LONG_LONG:
      return va_arg(*args, long long);
    case LENGTH_SIZE:  /* the signed type of size_t's width */
    case LENGTH_PTRDIFF:
      return va_arg(*args, ptrdiff_t);
    case LENGTH_INTMAX:
      return va_arg(*args, intmax_t);
    case LENGTH_DEFAULT:
      break;
  }
  return va_arg(*args, int);
}

static uintmax_t fetch_unsigned(enum format_length length, va_list *args) {
  switch (length) {
    case LENGTH_CHAR:
      return (unsigned char)va_arg(*args, unsigned);
    case LENGTH_SHORT:
      return (unsigned short)va_arg(*args, unsigned);
    case LENGTH_LONG:
      return va_arg(*args, unsigned long);
    case LENGTH_LONG_LONG:
      return va_arg(*args, unsigned long long);
    case LENGTH_SIZE:
      return va_arg(*args, size_t);
    case LENGTH_PTRDIFF:  /* the unsigned type of ptrdiff_t's width */
      return (size_t)va_arg(*args, ptrdiff_t);
    case LENGTH_INTMAX:
      return va_arg(*args, uintmax_t);
    case LENGTH_DEFAULT:
      break;
  }
  return va_arg(*args, unsigned);
}

/* Reads a decimal number; returns the position after it. */
static const char *parse_number(const char *p, int *value) {
  int number = 0;
  while (*p >= '0' && *p <= '9') {
    number = number * 10 + (*p - '0');
    p++;
  }
  *value = number;
  return p;
}

/* Parses the specification after '%' up to and including the conversion character. Returns the
 * position after it, or NULL when the string ends before a conversion character. */
static const char *parse_spec(const char *p, struct format_spec *spec, va_list *args) {
  spec->flags = 0;
  for (;; p++) {
    if (*p == '-') {
      spec->flags |= FLAG_LEFT;
    } else if (*p == '0') {
      spec->flags |= FLAG_ZERO;
    } else if (*p == '+') {
      spec->flags |= FLAG_PLUS;
    } else if (*p == ' ') {
      spec->flags |= FLAG_SPACE;
    } else if (*p == '#') {
      spec->flags |= FLAG_ALT;
    } else {
      break;
    }
  }

  spec->width = 0;
  if (*p == '*') {
    spec->width = va_arg(*args, int);
    if (spec->width < 0) { /* a negative width argument means '-' */
      spec->flags |= FLAG_LEFT;
      spec->width = -spec->width;
    }
    p++;
  } else {
    p = parse_number(p, &spec->width);
  }

  spec->precision = NO_PRECISION;
  if (*p == '.') {
    p++;
    if (*p == '*') {
      int precision = va_arg(*args, int);
      spec->precision = precision < 0 ? NO_PRECISION : precision;
      p++;
    } else {
      p = parse_number(p, &spec->precision);
    }
  }

  spec->length = LENGTH_DEFAULT;
  if (p[0] == 'h' && p[1] == 'h') {
    spec->length = LENGTH_CHAR;
    p += 2;
  } else if (p[0] == 'l' && p[1] == 'l') {
    spec->length = LENGTH_LONG_LONG;
    p += 2;
  } else if (*p == 'h') {
    spec->length = LENGTH_SHORT;
    p++;
  } else if (*p == 'l') {
    spec->length = LENGTH_LONG;
    p++;
  } else if (*p == 'z') {
    spec->length = LENGTH_SIZE;
    p++;
  } else if (*p == 'j') {
    spec->length = LENGTH_INTMAX;
    p++;
  } else if (*p == 't') {
    spec->length = LENGTH_PTRDIFF;
    p++;
  }

  if (*p == 0) {
    return NULL;
  }
  spec->conversion = *p;
  return p + 1;
}

int fw_vformat(format_sink_t sink, void *context, const char *format, va_list args) {
  struct format_output out = {sink, context, 0};
  va_list remaining;
  va_copy(remaining, args);

  const char *p = format;
  while (*p != 0) {
    if (*p != '%') {
      emit(&out, *p++);
      continue;
    }
    const char *spec_start = p;
    struct format_spec spec;
    const char *next = parse_spec(p + 1, &spec, &remaining);
    if (next == NULL) {
      /* A '%' with no conversion before the end: copy it as written. */
      while (*p != 0) {
        emit(&out, *p++);
      }
      break;
    }
    p = next;

    switch (spec.conversion) {
      case 'd':
      case 'i': {
        intmax_t value = fetch_signed(spec.length, &remaining);
        /* Negate in unsigned arithmetic: -INTMAX_MIN does not exist. */
        uintmax_t magnitude = value < 0 ? (uintmax_t)0 - (uintmax_t)value : (uintmax_t)value;
        emit_integer(&out, &spec, magnitude, value < 0);
        break;
      }
      case 'u':
      case 'x':
      case 'X':
      case 'o':
        emit_integer(&out, &spec, fetch_unsigned(spec.length, &remaining), false);
        break;
      case 'p':
        emit_integer(&out, &spec, (uintptr_t)va_arg(remaining, void *), false);
        break;
      case 'c': {
        char c = (char)va_arg(remaining, int);
        emit_padded_text(&out, &spec, &c, 1);
        break;
      }
      case 's': {
        const char *text = va_arg(remaining, const char *);
        if (text == NULL) {
          text = "(null)";
        }
        int length = 0;
        while (text[length] != 0 && (spec.precision == NO_PRECISION || length < spec.precision)) {
          length++;
        }
        emit_padded_text(&out, &spec, text, length);
        break;
      }
      case '%':
        emit(&out, '%');
        break;
      default:
        /* Unknown conversion: show the whole specification as written. */
        for (const char *q = spec_start; q < p; q++) {
          emit(&out, *q);
        }
        break;
    }
  }

  va_end(remaining);
  return out.count;
}

int fw_format(format_sink_t sink, void *context, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int count = fw_vformat(sink, context, format, args);
  va_end(args);
  return count;
}

struct buffer_sink {
  char *buffer;
  size_t size;
  size_t length; /* characters produced, including those that did not fit */
};

static void buffer_put(void *context, char c) {
  struct buffer_sink *sink = context;
  if (sink->length + 1 < sink->size) {
    sink->buffer[sink->length] = c;
  }
  sink->length++;
}

int fw_vsnprintf(char *buffer, size_t size, const char *format, va_list args) {
  struct buffer_sink sink = {buffer, size, 0};
  int count = fw_vformat(buffer_put, &sink, format, args);
  if (size > 0) {
    buffer[sink.length < size ? sink.length : size - 1] = 0;
  }
  return count;
}

int fw_snprintf(char *buffer, size_t size, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int count = fw_vsnprintf(buffer, size, format, args);
  va_end(args);
  return count;
}
