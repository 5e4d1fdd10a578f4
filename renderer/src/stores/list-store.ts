import { create } from 'zustand';
import type { ListPreview } from '../../../electron/common/contract.ts';
import { errorMessage, sift } from '../bridge.ts';

const previewRows = 20;

type ListState = {
  status: 'idle' | 'loading' | 'ready' | 'error';
  fileName?: string;
  preview?: ListPreview;
  error?: string;
  openFile(file: File): Promise<void>;
  reset(): void;
};

export const useListStore = create<ListState>()((set) => ({
  status: 'idle',
  async openFile(file) {
    set({ status: 'loading', fileName: file.name, error: undefined, preview: undefined });
    try {
      const ref = await sift.files.stage(file);
      const preview = await sift.lists.preview({ file: ref, maxRows: previewRows });
      set({ status: 'ready', preview });
    } catch (error) {
      set({ status: 'error', error: errorMessage(error) });
    }
  },
  reset: () => set({ status: 'idle', fileName: undefined, preview: undefined, error: undefined }),
}));
