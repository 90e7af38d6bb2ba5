export default function AlphaPanel() {
  return 'alpha panel';
}
