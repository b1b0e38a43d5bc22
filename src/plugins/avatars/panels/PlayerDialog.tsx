import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import type { Avatar } from '../../../contract';
import { VideoPlayer } from '../../../core';
import { orientationOf } from '../avatar-view';

/** Click on an avatar: its video, with 高级创作 (part 1 §2 My avatars). */
export function PlayerDialog({ avatar, onClose, onCreate }: { avatar: Avatar | null; onClose: () => void; onCreate: (avatar: Avatar) => void }) {
  return (
    <Dialog isOpen={avatar !== null} onClose={onClose} title={avatar?.name ?? ''} icon="play" className="av-player-dialog">
      <DialogBody className="av-player-body">
        {avatar && (
          <VideoPlayer
            key={avatar.id}
            src={avatar.url}
            poster={avatar.cover || undefined}
            autoPlay
            label={avatar.name}
            className={`av-player ${orientationOf(avatar) === 1 ? 'landscape' : 'portrait'}`}
            data-testid="avatar-video"
          />
        )}
      </DialogBody>
      <DialogFooter
        actions={[
          <Button key="close" text="关闭" onClick={onClose} />,
          <Button key="create" intent="primary" icon="video" text="高级创作" onClick={() => avatar && onCreate(avatar)} data-testid="player-create" />,
        ]}
      />
    </Dialog>
  );
}
