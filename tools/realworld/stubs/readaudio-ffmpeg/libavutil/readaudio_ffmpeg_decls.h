/* Self-written minimal declarations of the FFmpeg 4.x API names that
 * vadimkantorov/readaudio's decode_audio_ffmpeg.c uses (the FFmpeg
 * development headers are not installed here). Only what that file needs to
 * parse: types with the fields it reads, prototypes and macros. Not FFmpeg
 * code; values of constants are irrelevant to the analysis. */
#ifndef READAUDIO_FFMPEG_DECLS_H
#define READAUDIO_FFMPEG_DECLS_H
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FFMIN(a, b) ((a) > (b) ? (b) : (a))
#define FF_ARRAY_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
#define AV_NE(be, le) (le)
#define AVERROR(e) (-(e))
#define AVERROR_EOF (-541478725)
#define AVSEEK_SIZE 0x10000
#define AV_TIME_BASE 1000000
#define AV_LOG_FATAL 8
#define AV_LOG_DEBUG 48
#define AV_BUFFERSRC_FLAG_KEEP_REF 8
#define AV_OPT_SEARCH_CHILDREN 1

typedef struct AVRational { int num, den; } AVRational;
enum AVSampleFormat {
  AV_SAMPLE_FMT_NONE = -1, AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_S16,
  AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_DBL
};
enum AVMediaType { AVMEDIA_TYPE_AUDIO = 1 };
enum AVCodecID { AV_CODEC_ID_NONE };

typedef struct AVDictionary AVDictionary;
typedef struct AVIOContext AVIOContext;
typedef struct AVInputFormat AVInputFormat;
typedef struct AVCodec AVCodec;
typedef struct AVFilter AVFilter;
typedef struct AVFilterGraph AVFilterGraph;
typedef struct AVFilterContext AVFilterContext;

typedef struct AVFrame { uint8_t *data[8]; int nb_samples; } AVFrame;
typedef struct AVPacket { uint8_t *data; int size; int stream_index; } AVPacket;
typedef struct AVCodecParameters { enum AVCodecID codec_id; } AVCodecParameters;
typedef struct AVStream {
  AVCodecParameters *codecpar; AVRational time_base; int64_t duration;
  int probe_packets;
} AVStream;
typedef struct AVFormatContext {
  AVIOContext *pb; AVStream **streams; int64_t duration; int format_probesize;
} AVFormatContext;
typedef struct AVCodecContext {
  enum AVSampleFormat sample_fmt; int sample_rate; int channels;
  uint64_t channel_layout; AVRational time_base;
} AVCodecContext;
typedef struct AVFilterInOut {
  char *name; AVFilterContext *filter_ctx; int pad_idx;
  struct AVFilterInOut *next;
} AVFilterInOut;

void av_register_all(void);
void avfilter_register_all(void);
void av_log_set_level(int level);
void *av_malloc(size_t size);
void av_free(void *ptr);
char *av_strdup(const char *s);
AVFrame *av_frame_alloc(void);
void av_frame_free(AVFrame **frame);
void av_frame_unref(AVFrame *frame);
AVPacket *av_packet_alloc(void);
void av_packet_free(AVPacket **pkt);
void av_packet_unref(AVPacket *pkt);
const char *av_get_sample_fmt_name(enum AVSampleFormat sample_fmt);
int av_sample_fmt_is_planar(enum AVSampleFormat sample_fmt);
enum AVSampleFormat av_get_packed_sample_fmt(enum AVSampleFormat sample_fmt);
int64_t av_get_default_channel_layout(int nb_channels);
int av_opt_set_int_list_impl(void *obj, const char *name, const void *list,
                             int64_t term, int flags);
#define av_opt_set_int_list(obj, name, val, term, flags) \
  av_opt_set_int_list_impl(obj, name, val, term, flags)

AVCodec *avcodec_find_decoder(enum AVCodecID id);
AVCodecContext *avcodec_alloc_context3(const AVCodec *codec);
void avcodec_free_context(AVCodecContext **avctx);
int avcodec_parameters_to_context(AVCodecContext *codec,
                                  const AVCodecParameters *par);
int avcodec_open2(AVCodecContext *avctx, const AVCodec *codec,
                  AVDictionary **options);
int avcodec_send_packet(AVCodecContext *avctx, const AVPacket *avpkt);
int avcodec_receive_frame(AVCodecContext *avctx, AVFrame *frame);

AVFormatContext *avformat_alloc_context(void);
AVInputFormat *av_find_input_format(const char *short_name);
int avformat_open_input(AVFormatContext **ps, const char *url,
                        AVInputFormat *fmt, AVDictionary **options);
int avformat_find_stream_info(AVFormatContext *ic, AVDictionary **options);
void avformat_close_input(AVFormatContext **s);
int av_find_best_stream(AVFormatContext *ic, enum AVMediaType type,
                        int wanted_stream_nb, int related_stream,
                        AVCodec **decoder_ret, int flags);
int av_read_frame(AVFormatContext *s, AVPacket *pkt);
AVIOContext *avio_alloc_context(
    unsigned char *buffer, int buffer_size, int write_flag, void *opaque,
    int (*read_packet)(void *opaque, uint8_t *buf, int buf_size),
    int (*write_packet)(void *opaque, uint8_t *buf, int buf_size),
    int64_t (*seek)(void *opaque, int64_t offset, int whence));

AVFilter *avfilter_get_by_name(const char *name);
AVFilterGraph *avfilter_graph_alloc(void);
void avfilter_graph_free(AVFilterGraph **graph);
int avfilter_graph_create_filter(AVFilterContext **filt_ctx,
                                 const AVFilter *filt, const char *name,
                                 const char *args, void *opaque,
                                 AVFilterGraph *graph_ctx);
int avfilter_graph_parse_ptr(AVFilterGraph *graph, const char *filters,
                             AVFilterInOut **inputs, AVFilterInOut **outputs,
                             void *log_ctx);
int avfilter_graph_config(AVFilterGraph *graphctx, void *log_ctx);
AVFilterInOut *avfilter_inout_alloc(void);
void avfilter_inout_free(AVFilterInOut **inout);
int av_buffersrc_add_frame_flags(AVFilterContext *buffer_src, AVFrame *frame,
                                 int flags);
int av_buffersink_get_frame(AVFilterContext *ctx, AVFrame *frame);
#endif
