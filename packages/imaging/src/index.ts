/**
 * The public face of @mirra/imaging: pure image and face code with no database, HTTP or app
 * configuration (what it needs, such as the ffmpeg path or a face analyser, is passed in). The
 * server's local engine and the models module use it through this file only.
 */
export * from './faces/index.js';
export {
  engineNote,
  UnusableInputError,
  type EngineFaceModel,
  type EngineImage,
  type EngineNote,
} from './pipeline.types.js';
export {
  describeNothingUnderstood,
  EDITING_EXAMPLES,
  MAX_UPSCALE_SIDE,
  parseEditInstruction,
} from './pipelines/editing.models.js';
export { applyEdits } from './pipelines/editing.pipeline.js';
export { facePhotoFromPrompt } from './pipelines/face-photo.pipeline.js';
export { faceSwapOnPhoto } from './pipelines/face-swap.pipeline.js';
export { applyStyle, STYLE_NAMES, STYLING_MAX_SIDE } from './pipelines/styling.pipeline.js';
export { FACE_KEEPING_STYLES, type StyleFace } from './pipelines/styling.faces.js';
export { LOCAL_ENGINE_DESCRIPTIONS, readExifLabel, withLocalEngineLabel } from './raster/image-label.js';
export { countDistinctColours, decodePhoto, encodePng, rawFrom, type RawImage } from './raster/raster.js';
export { describeScene, planScene } from './scene/scene.models.js';
export { renderScene } from './scene/scene.render.js';
export {
  BACKGROUND_MAX_SIDE,
  cutOutPerson,
  replaceBackground,
  type BackgroundChoice,
  type BackgroundOptions,
} from './tools/background.js';
export { inpaint, INPAINT_MAX_SIDE, type InpaintOptions } from './tools/inpaint.js';
export {
  outpaint,
  OUTPAINT_MAX_SIDE,
  planCanvas,
  type OutpaintOptions,
  type OutpaintTarget,
} from './tools/outpaint.js';
export type { ToolProgress, ToolResult } from './tools/tool.types.js';
export { RESTORE_MAX_SIDE, restoreOldPhoto, type RestoreOptions, SMALL_PHOTO_SIDE } from './tools/restore.js';
export type { LocalToolOptions, LocalToolResult } from './tools/tool-io.js';
export { MAX_NETWORK_INPUT_PIXELS, planUpscale, type UpscaleFactor, upscaleImage } from './tools/upscale.js';
export { subjectCoverage, subjectPlacements, type SubjectCoverage } from './scene/subjects.check.js';
export { emojiArtSvg } from './scene/subjects.art.js';
export type { SubjectSpec } from './scene/subjects.models.js';
export {
  animateScene,
  shapeForFrame,
  type SceneAnimation,
  type SceneMotion,
} from './scene/scene.animation.js';
export {
  animatedWebpPreview,
  assertExecutable,
  bundledFfmpegPath,
  FfmpegFailedError,
  FfmpegMissingError,
  runFfmpeg,
  sampleVideoFrames,
} from './video/ffmpeg.js';
export { createPersonSegmenter, type PersonSegmenter } from './video/person-segmentation.js';
export { frameCount, VIDEO_FPS, videoFrameSize } from './video/video.models.js';
export { sceneWithCameraMove } from './video/camera-moves.models.js';
export {
  animatePhoto,
  encodeFrames,
  PhotoTooSmallError,
  type AnimatedPhoto,
  type PhotoMotion,
} from './video/video.pipeline.js';
export { talkingPhoto, type TalkingPhoto } from './video/talking-photo.pipeline.js';
export { SPEECH_VOICES, synthesiseSpeech } from './video/speech.js';
export { canvasWithMask } from './tools/canvas.js';
export { composeBehindCutOut } from './tools/compose-behind.js';
