// Making pictures and videos: the generate form, a generation's live page, the list of mine,
// and repeating a post's recipe.
export { default as GenerationsGrid } from './components/generations-grid';
export { GenerateForm } from './components/generate-form';
export { GenerationView } from './components/generation-view';
export { ModeCard } from './components/mode-card';
export { ModeUnavailable } from './components/mode-unavailable';
export { useAiOffered, useModeOffered } from './hooks/use-offered-modes';
export { RepeatPostButton } from './components/repeat-post-button';
export { PictureToolLinks, PictureToolsMenu } from './components/picture-tool-links';
export { PhotoPackCatalogue, PhotoPackPurchase } from './components/photo-packs';
export { PhotoPackAlbum } from './components/photo-pack-album';
export { forgetGenerationDrafts } from './draft-storage';
export { useLiveGeneration } from './hooks/use-live-generation';
export { CREATE_MODES, isGenerationMode } from './modes';
export { IDEAS, ideaHref } from './ideas';
