/** collection/display: the collection's thumbnail and banner (spec 002 section 5's recommended sizes). */
import { FileInput } from '@mantine/core';
import { useMintFiles } from './mintWizardState';
import { MintStepFrame, useMintRoute } from './MintStepFrame';

export function MintDisplayPage() {
  const { vaultId, go } = useMintRoute();
  const [files, update] = useMintFiles(vaultId);
  return (
    <MintStepFrame title="Collection display" onBack={() => go('ucm')} onNext={() => go('file')}>
      <FileInput
        label="Thumbnail"
        description="Recommended size 200x200"
        accept="image/*"
        clearable
        value={files.thumbnail}
        onChange={(thumbnail) => update({ thumbnail })}
      />
      <FileInput label="Banner" description="Recommended size 1600x900" accept="image/*" clearable value={files.banner} onChange={(banner) => update({ banner })} />
    </MintStepFrame>
  );
}
